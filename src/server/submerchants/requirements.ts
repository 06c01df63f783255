import {
  COMPANY_DOCUMENT_TYPES,
  type DocumentType,
  PARTNER_DOCUMENT_TYPES,
  PERSON_DOCUMENT_TYPES,
} from './document-types.js';

/** What review still needs, machine-readably. It informs; only submit-for-review's own rule blocks. */
export interface Requirements {
  ready_for_review: boolean;
  items: RequirementItem[];
}

export type RequirementCode =
  | 'REPRESENTATIVE_MISSING'
  | 'ADDRESS_MISSING'
  | 'MCC_UNRESOLVED'
  | 'DOCUMENT_MISSING'
  | 'DOCUMENT_REJECTED'
  | 'DOCUMENT_EXPIRED';

export interface RequirementItem {
  code: RequirementCode;
  document_type?: DocumentType;
  legal_representative_id?: string;
  /** The current document that is rejected or expired. */
  document_id?: string;
  message: string;
}

export interface RequirementsInput {
  entityType: string;
  mcc: string | null;
  representatives: readonly { id: string; name: string }[];
  addressCount: number;
  /** Current documents only (replaced ones never count). */
  documents: readonly {
    id: string;
    type: string;
    legal_representative_id: string | null;
    status: string;
    expires_at: string | null;
    rejection_reason: string | null;
  }[];
  now: Date;
}

/** A document whose `expires_at` has passed is expired, whatever its recorded status. */
export function effectiveDocumentStatus(document: { status: string; expires_at: string | null }, now: Date) {
  if (document.status === 'rejected' || document.status === 'expired') return document.status;
  if (document.expires_at !== null && document.expires_at <= now.toISOString()) return 'expired';
  return document.status;
}

export function computeRequirements(input: RequirementsInput): Requirements {
  const items: RequirementItem[] = [];
  const isCompany = input.entityType === 'pj';
  if (isCompany && input.representatives.length === 0) {
    items.push({
      code: 'REPRESENTATIVE_MISSING',
      message:
        'Add at least one legal representative: a company (pj) cannot be submitted for review without one.',
    });
  }
  if (input.addressCount === 0) items.push({ code: 'ADDRESS_MISSING', message: 'Add an address.' });
  if (input.mcc === null) {
    items.push({
      code: 'MCC_UNRESOLVED',
      message:
        'The MCC could not be resolved from a primary CNAE: send mcc, or mark a CNAE of the mapping table as primary.',
    });
  }

  const current = new Map(
    input.documents.map((document) => [slotKey(document.type, document.legal_representative_id), document]),
  );
  const needDocument = (type: DocumentType, representative?: { id: string; name: string }) => {
    const document = current.get(slotKey(type, representative?.id ?? null));
    const whose = representative
      ? ` for legal representative ${representative.name} (${representative.id})`
      : '';
    const ids = {
      document_type: type,
      ...(representative && { legal_representative_id: representative.id }),
    };
    if (!document) {
      items.push({ code: 'DOCUMENT_MISSING', ...ids, message: `Upload a ${type} document${whose}.` });
      return;
    }
    const status = effectiveDocumentStatus(document, input.now);
    if (status === 'rejected') {
      const reason = document.rejection_reason ? `: ${document.rejection_reason}` : '';
      items.push({
        code: 'DOCUMENT_REJECTED',
        ...ids,
        document_id: document.id,
        message: `The ${type} document${whose} was rejected${reason}. Upload a new one.`,
      });
    } else if (status === 'expired') {
      const when = document.expires_at && document.status !== 'expired' ? ` on ${document.expires_at}` : '';
      items.push({
        code: 'DOCUMENT_EXPIRED',
        ...ids,
        document_id: document.id,
        message: `The ${type} document${whose} expired${when}. Upload a new one.`,
      });
    }
  };

  if (isCompany) {
    for (const type of COMPANY_DOCUMENT_TYPES) needDocument(type);
    for (const representative of input.representatives) {
      for (const type of PARTNER_DOCUMENT_TYPES) needDocument(type, representative);
    }
  } else {
    for (const type of PERSON_DOCUMENT_TYPES) needDocument(type);
  }
  return { ready_for_review: items.length === 0, items };
}

const slotKey = (type: string, representativeId: string | null) => `${type}\u0000${representativeId ?? ''}`;

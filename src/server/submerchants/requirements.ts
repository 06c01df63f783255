import {
  COMPANY_DOCUMENT_TYPES,
  type DocumentType,
  PARTNER_DOCUMENT_TYPES,
  PERSON_DOCUMENT_TYPES,
} from './document-types.js';

/**
 * What review still needs, machine-readably. It informs; only submit-for-review's own rule blocks. `items` is what
 * the merchant must still send; `pending_verification` what it sent that the operator has not yet approved (as
 * Stripe's `requirements.pending_verification`): on an active submerchant, the representatives and documents
 * changed since its approval.
 */
export interface Requirements {
  ready_for_review: boolean;
  items: RequirementItem[];
  pending_verification: PendingItem[];
}

export interface PendingItem {
  code: 'REPRESENTATIVE_PENDING_REVIEW' | 'DOCUMENT_PENDING_REVIEW';
  legal_representative_id?: string;
  document_type?: DocumentType;
  document_id?: string;
  message: string;
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
  representatives: readonly { id: string; name: string; review_status: string }[];
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
  return { ready_for_review: items.length === 0, items, pending_verification: pendingVerification(input) };
}

function pendingVerification(input: RequirementsInput): PendingItem[] {
  const names = new Map(
    input.representatives.map((representative) => [representative.id, representative.name]),
  );
  const representatives: PendingItem[] = input.representatives
    .filter((representative) => representative.review_status === 'pending')
    .map((representative) => ({
      code: 'REPRESENTATIVE_PENDING_REVIEW',
      legal_representative_id: representative.id,
      message: `Legal representative ${representative.name} (${representative.id}) awaits review.`,
    }));
  const documents: PendingItem[] = input.documents
    .filter((document) => effectiveDocumentStatus(document, input.now) === 'pending')
    .map((document) => {
      const owner = document.legal_representative_id;
      const whose = owner ? ` of legal representative ${names.get(owner) ?? owner} (${owner})` : '';
      return {
        code: 'DOCUMENT_PENDING_REVIEW',
        document_type: document.type as DocumentType,
        document_id: document.id,
        ...(owner && { legal_representative_id: owner }),
        message: `The ${document.type} document${whose} awaits review.`,
      };
    });
  return [...representatives, ...documents];
}

const slotKey = (type: string, representativeId: string | null) => `${type}\u0000${representativeId ?? ''}`;

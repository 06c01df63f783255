/** The document types of the published interface, and which of them review needs for each kind of submerchant. */
export const DOCUMENT_TYPES = [
  'social_contract',
  'contract_amendment',
  'cnpj_card',
  'proof_of_residence_company',
  'partner_front_id',
  'partner_back_id',
  'partner_selfie_with_id',
  'partner_proof_of_residence',
  'front_id',
  'back_id',
  'selfie_with_id',
  'proof_of_residence',
] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Types about one legal representative: they name it with `legal_representative_id`; no other type may. */
export const PARTNER_DOCUMENT_TYPES: readonly DocumentType[] = [
  'partner_front_id',
  'partner_back_id',
  'partner_selfie_with_id',
  'partner_proof_of_residence',
];

export const isPartnerDocumentType = (type: string): boolean =>
  (PARTNER_DOCUMENT_TYPES as readonly string[]).includes(type);

/**
 * What review needs of a company (pj), besides the partner documents of each representative. The twelfth type,
 * `contract_amendment` (the latest amendment), is a company document review accepts but does not need.
 */
export const COMPANY_DOCUMENT_TYPES: readonly DocumentType[] = [
  'social_contract',
  'cnpj_card',
  'proof_of_residence_company',
];

/** What review needs of a person (pf). */
export const PERSON_DOCUMENT_TYPES: readonly DocumentType[] = [
  'front_id',
  'back_id',
  'selfie_with_id',
  'proof_of_residence',
];

export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/**
 * A document's slot: sending a document for an occupied slot replaces the current one. One slot per type,
 * and per (type, representative) for partner documents.
 */
export const documentSlot = (type: string, legalRepresentativeId: string | null): string =>
  legalRepresentativeId ? `${type}:${legalRepresentativeId}` : type;

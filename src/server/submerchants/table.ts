/** Row types of the onboarding tables (migration 0007_submerchants); conventions in db/columns.ts. */

export interface SubmerchantsTable {
  id: string;
  merchant_id: string;
  /** 'pj' (company, CNPJ) or 'pf' (person, CPF). */
  entity_type: string;
  /** Digits only; unique per merchant. */
  tax_id: string;
  trade_name: string;
  legal_name: string;
  email: string;
  phone: string;
  birth_date: string | null;
  mother_name: string | null;
  business_type: string | null;
  /** Names, tax id and e-mail lower-cased in JS (SQLite's lower() folds ASCII only): what `search` matches. */
  search_text: string;
  /** JSON array of strings. */
  product_categories: string;
  average_ticket: number | null;
  monthly_revenue: number | null;
  mcc: string | null;
  /** 'provided' (sent by the merchant) or 'cnae' (resolved from the primary CNAE); null when unresolved. */
  mcc_source: string | null;
  /** JSON array of { code, description, is_primary }. */
  cnaes: string;
  /** pending | pending_review | active | rejected */
  status: string;
  rejection_reason: string | null;
  submitted_at: string | null;
  reviewed_at: string | null;
  /** Set while the operator blocks the submerchant (migration 0070); its status is kept apart. */
  blocked_at: string | null;
  block_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubmerchantRepresentativesTable {
  id: string;
  submerchant_id: string;
  name: string;
  /** CPF (entity_type pf) or CNPJ (pj), digits only; unique per submerchant: the upsert key. */
  document: string;
  entity_type: string;
  legal_name: string | null;
  birth_date: string | null;
  mother_name: string | null;
  email: string | null;
  phone: string | null;
  role: string | null;
  qualification: string | null;
  /** Hundredths of a percent (0–10000), so 33.33 % is stored exactly. */
  participation_hundredths: number | null;
  is_admin: number;
  /** pending (new or changed, awaiting review) | approved (its submerchant was approved since); migration 0016. */
  review_status: string;
  created_at: string;
  updated_at: string;
}

export interface SubmerchantDocumentsTable {
  id: string;
  submerchant_id: string;
  legal_representative_id: string | null;
  type: string;
  /** type, or type:representative for partner documents; one current (replaced_at null) document per slot. */
  slot: string;
  number: string | null;
  file_url: string;
  file_name: string;
  file_size: number;
  mime_type: string;
  expires_at: string | null;
  notes: string | null;
  /** pending | approved | rejected | expired */
  status: string;
  rejection_reason: string | null;
  reviewed_at: string | null;
  replaced_at: string | null;
  replaces_document_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubmerchantAddressesTable {
  id: string;
  submerchant_id: string;
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: string;
  zip_code: string;
  country: string;
  /** billing | shipping | both */
  type: string;
  is_primary: number;
  created_at: string;
  updated_at: string;
}

/** Every status change of a submerchant or one of its documents: who, when, from what to what, and why. */
export interface SubmerchantStatusChangesTable {
  id: string;
  submerchant_id: string;
  /** 'submerchant' or 'document' */
  subject_type: string;
  subject_id: string;
  /** 1, 2, … per subject: orders changes made within the same millisecond. */
  seq: number;
  from_status: string | null;
  to_status: string;
  /** 'merchant' or 'operator' */
  actor: string;
  actor_id: string;
  reason: string | null;
  created_at: string;
}

/** Who deleted an archived row, and when (migration 0029). */
interface Deletion {
  deleted_at: string;
  /** 'merchant' or 'operator' */
  deleted_by_actor: string;
  /** The merchant's id, or the operator key's id. */
  deleted_by: string;
}

/** A deleted legal representative, kept for audit: the operator reads it, the merchant no longer sees it. */
export interface SubmerchantRepresentativesArchiveTable extends SubmerchantRepresentativesTable, Deletion {}

/** A deleted document (on its own, or with its representative), kept for audit with its status history. */
export interface SubmerchantDocumentsArchiveTable extends SubmerchantDocumentsTable, Deletion {}

/**
 * GET /v1/submerchants/:id's answer, stored with the submerchant (read-answer.ts, migration 0037): the parts its
 * statement writes (read-json.ts), null while there is none. Triggers clear them and bump `version` on every write.
 */
export interface SubmerchantAnswersTable {
  submerchant_id: string;
  merchant_id: string;
  version: number;
  head: string | null;
  status_history: string | null;
  requirements_input: string | null;
  /** The answer statement that wrote it (a release that changes the statement never reads an older answer). */
  format: string | null;
  /** The answer holds for request clocks in [valid_from, stale_after), compared as ISO text like expiry itself. */
  valid_from: string | null;
  stale_after: string | null;
}

import { fromJson } from '../db/columns.js';
import { presentAddress } from './addresses/present.js';
import { presentDocument } from './documents/present.js';
import { presentRepresentative } from './representatives/present.js';
import type { SubmerchantStatus } from './schemas.js';
import type { SubmerchantDetail } from './service.js';
import { presentStatusHistory } from './status-history-present.js';
import type { SubmerchantRow } from './store.js';

export interface StoredCnae {
  code: string;
  description: string | null;
  is_primary: boolean;
}

/** A submerchant's own fields, as lists and events show it. */
export function presentSubmerchant(row: SubmerchantRow) {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    entity_type: row.entity_type as 'pj' | 'pf',
    tax_id: row.tax_id,
    trade_name: row.trade_name,
    legal_name: row.legal_name,
    email: row.email,
    phone: row.phone,
    birth_date: row.birth_date,
    mother_name: row.mother_name,
    business_type: row.business_type,
    product_categories: fromJson<string[]>(row.product_categories, []),
    average_ticket: row.average_ticket === null ? null : Number(row.average_ticket),
    monthly_revenue: row.monthly_revenue === null ? null : Number(row.monthly_revenue),
    mcc: row.mcc,
    mcc_source: row.mcc_source as 'provided' | 'cnae' | null,
    cnaes: fromJson<StoredCnae[]>(row.cnaes, []),
    status: row.status as SubmerchantStatus,
    rejection_reason: row.rejection_reason,
    submitted_at: row.submitted_at,
    reviewed_at: row.reviewed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A submerchant with its representatives, addresses, current documents, requirements and history. */
export function presentSubmerchantDetail(detail: SubmerchantDetail, now: Date) {
  return {
    ...presentSubmerchant(detail.submerchant),
    legal_representatives: detail.representatives.map(presentRepresentative),
    addresses: detail.addresses.map(presentAddress),
    documents: detail.documents.map((document) => presentDocument(document, now)),
    requirements: detail.requirements,
    status_history: presentStatusHistory(detail.statusHistory),
  };
}

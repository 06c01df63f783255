import { presentAddress } from './addresses/present.js';
import { presentDocument } from './documents/present.js';
import type { SubmerchantJson } from './read-json.js';
import { presentRepresentative } from './representatives/present.js';
import type { SubmerchantDetail } from './service.js';
import { presentStatusHistory } from './status-history-present.js';
import type { Submerchant } from './store.js';

/** A submerchant's own fields, as lists and events show it. */
export function presentSubmerchant(submerchant: Submerchant) {
  return {
    id: submerchant.id,
    merchant_id: submerchant.merchantId,
    entity_type: submerchant.entityType,
    tax_id: submerchant.taxId,
    trade_name: submerchant.tradeName,
    legal_name: submerchant.legalName,
    email: submerchant.email,
    phone: submerchant.phone,
    birth_date: submerchant.birthDate,
    mother_name: submerchant.motherName,
    business_type: submerchant.businessType,
    product_categories: submerchant.productCategories,
    average_ticket: submerchant.averageTicket,
    monthly_revenue: submerchant.monthlyRevenue,
    mcc: submerchant.mcc,
    mcc_source: submerchant.mccSource,
    cnaes: submerchant.cnaes.map((cnae) => ({
      code: cnae.code,
      description: cnae.description,
      is_primary: cnae.isPrimary,
    })),
    status: submerchant.status,
    rejection_reason: submerchant.rejectionReason,
    submitted_at: submerchant.submittedAt,
    reviewed_at: submerchant.reviewedAt,
    blocked: submerchant.blockedAt !== null,
    blocked_at: submerchant.blockedAt,
    block_reason: submerchant.blockReason,
    created_at: submerchant.createdAt,
    updated_at: submerchant.updatedAt,
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

/**
 * GET /v1/submerchants/:id's answer as JSON text: the statement's JSON (read-json.ts) with the requirements, as
 * the response schema's serialiser writes them, in their place (the schema's order: last but one).
 */
export const submerchantReadAnswer = (json: SubmerchantJson, requirements: string) =>
  `{"message":"Submerchant retrieved.","data":${json.head},"requirements":${requirements},"status_history":${json.statusHistory}}}`;

import type { Anticipation } from './service.js';

export function presentAnticipation(row: Anticipation) {
  return {
    id: row.id,
    status: row.status,
    submerchant_id: row.owner_type === 'submerchant' ? row.owner_id : null,
    wallet_id: row.wallet_id,
    timeframe: row.timeframe,
    payment_date: row.payment_date,
    requested_amount: Number(row.requested_amount),
    approved_amount: Number(row.approved_amount),
    fee: Number(row.fee),
    net_amount: Number(row.net_amount),
    receivables_count: Number(row.receivables_count),
    monthly_rate: Number(row.monthly_rate),
    status_reason: row.status_reason,
    version: Number(row.version),
    paid_at: row.paid_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

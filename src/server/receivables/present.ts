import type { Receivable } from './service.js';

export function presentReceivable(row: Receivable) {
  return {
    id: row.id,
    charge_id: row.charge_id,
    installment: Number(row.installment),
    installments: Number(row.installments),
    recipient: { type: row.recipient_type, id: row.recipient_id },
    amount: Number(row.amount),
    fee: Number(row.fee),
    net_amount: Number(row.net_amount),
    status: row.status,
    type: row.type,
    payment_date: row.payment_date,
    original_payment_date: row.original_payment_date,
    anticipation_id: row.anticipation_id,
    paid_at: row.paid_at,
    created_at: row.created_at,
  };
}

import type { Charge } from './service.js';

/** A charge as the interface shows it (responses and event payloads). */
export function presentCharge(charge: Charge) {
  return {
    id: charge.id,
    amount: charge.amount,
    currency: 'BRL' as const,
    payment_method: charge.paymentMethod,
    installments: charge.installments,
    status: charge.status,
    failure_code: charge.failureCode,
    failure_message: charge.failureMessage,
    customer: charge.customer,
    card: {
      brand: charge.card.brand,
      last4: charge.card.last4,
      exp_month: charge.card.expMonth,
      exp_year: charge.card.expYear,
    },
    fraud_session_id: charge.fraudSessionId,
    submerchant_id: charge.submerchantId,
    fraud_analysis: charge.fraudAnalysis,
    split:
      charge.split?.map((rule) => ({
        submerchant_id: rule.submerchantId,
        type: rule.type,
        amount: rule.amount,
        liable: rule.liable,
        charge_processing_fee: rule.chargeProcessingFee,
      })) ?? null,
    refunded_at: charge.refundedAt,
    created_at: charge.createdAt,
    updated_at: charge.updatedAt,
  };
}

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
    card: charge.card && {
      brand: charge.card.brand,
      last4: charge.card.last4,
      exp_month: charge.card.expMonth,
      exp_year: charge.card.expYear,
    },
    pix: charge.pix
      ? {
          txid: charge.pix.txid,
          br_code: charge.pix.brCode,
          qr_code_svg: charge.pix.qrCodeSvg,
          expires_at: charge.pix.expiresAt,
        }
      : null,
    boleto: charge.boleto
      ? {
          barcode: charge.boleto.barcode,
          digitable_line: charge.boleto.digitableLine,
          due_date: charge.boleto.dueDate,
          our_number: charge.boleto.ourNumber,
          url: charge.boleto.url,
        }
      : null,
    fraud_session_id: charge.fraudSessionId,
    submerchant_id: charge.submerchantId,
    fraud_analysis: charge.fraudAnalysis,
    review: charge.review && {
      opened_at: charge.review.openedAt,
      expires_at: charge.review.expiresAt,
      reasons: charge.review.reasons,
      decision: charge.review.decision,
      closed_at: charge.review.closedAt,
      closed_by: charge.review.closedBy,
      closed_by_user_id: charge.review.closedByUserId,
      note: charge.review.note,
    },
    canceled_at: charge.canceledAt,
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

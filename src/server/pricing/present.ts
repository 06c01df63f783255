import type { Pricing, PricingChange } from './service.js';

export function presentPricing(pricing: Pricing) {
  return {
    card_mdr: {
      one_installment: pricing.cardMdr.oneInstallment,
      two_to_six: pricing.cardMdr.twoToSix,
      seven_to_twelve: pricing.cardMdr.sevenToTwelve,
    },
    card_settlement_delay_days: pricing.cardSettlementDelayDays,
    anticipation_monthly_rate: pricing.anticipationMonthlyRate,
    anticipation: {
      enabled: pricing.anticipation.enabled,
      minimum_amount: pricing.anticipation.minimumAmount,
      auto_approve_limit: pricing.anticipation.autoApproveLimit,
    },
    withdrawal_fee: pricing.withdrawalFee,
    minimum_withdrawal: pricing.minimumWithdrawal,
    pix: { fee: pricing.pix.fee, settlement_delay_days: pricing.pix.settlementDelayDays },
    boleto: { fee: pricing.boleto.fee, settlement_delay_days: pricing.boleto.settlementDelayDays },
  };
}

type Body = {
  card_mdr?: { one_installment?: number; two_to_six?: number; seven_to_twelve?: number };
  card_settlement_delay_days?: number;
  anticipation_monthly_rate?: number;
  anticipation?: { enabled?: boolean; minimum_amount?: number; auto_approve_limit?: number };
  withdrawal_fee?: { pix?: number; ted?: number };
  minimum_withdrawal?: number;
  pix?: { fee?: number; settlement_delay_days?: number };
  boleto?: { fee?: number; settlement_delay_days?: number };
};

export function toPricingChange(body: Body): PricingChange {
  return {
    cardMdr: body.card_mdr && {
      oneInstallment: body.card_mdr.one_installment,
      twoToSix: body.card_mdr.two_to_six,
      sevenToTwelve: body.card_mdr.seven_to_twelve,
    },
    cardSettlementDelayDays: body.card_settlement_delay_days,
    anticipationMonthlyRate: body.anticipation_monthly_rate,
    anticipation: body.anticipation && {
      enabled: body.anticipation.enabled,
      minimumAmount: body.anticipation.minimum_amount,
      autoApproveLimit: body.anticipation.auto_approve_limit,
    },
    withdrawalFee: body.withdrawal_fee,
    minimumWithdrawal: body.minimum_withdrawal,
    pix: body.pix && { fee: body.pix.fee, settlementDelayDays: body.pix.settlement_delay_days },
    boleto: body.boleto && { fee: body.boleto.fee, settlementDelayDays: body.boleto.settlement_delay_days },
  };
}

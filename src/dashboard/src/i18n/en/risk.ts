/**
 * The risk performance page: how the fraud analysis did, from GET /v1/risk/performance (docs/charges.md). An area
 * catalogue, loaded with its page (i18n/index.ts `loadArea`).
 */
export const risk = {
  title: 'Risk performance',
  analysed: 'Charges analysed',
  approvalRate: 'Approved',
  reviewRate: 'Held for review',
  declineRate: 'Declined',
  fraudRate: 'Fraud rate',
  fraudRateNote: 'Fraud chargebacks over the analysed charges that took money.',
  byCount: 'by count',
  byAmount: 'by amount',
  paid: 'Charges that took money',
  disputed: 'Fraud chargebacks',
  countAndAmount: (count: string, amount: string) => `${count} · ${amount}`,
  reviews: 'How reviews ended',
  reviewHead: { outcome: 'Outcome', charges: 'Charges' },
  outcomes: {
    opened: 'Held for review',
    approved: 'Approved by you',
    rejected: 'Rejected by you',
    approved_at_timeout: 'Approved when the window closed',
    rejected_at_timeout: 'Rejected when the window closed',
    open: 'Still waiting',
  },
  reasons: 'What each reason code caught',
  reasonsNote:
    'Of the charges that carried each reason, how many ended as fraud (rejected in review or disputed for fraud): its precision. The others carry no fraud label, so far.',
  reasonHead: {
    code: 'Reason',
    charges: 'Charges',
    fraud: 'Ended as fraud',
    notFraud: 'No fraud label',
    precision: 'Precision',
  },
  noReasons: 'No analysed charge carried a reason code in this period.',
  whatIf: 'What if: other thresholds over the last 30 days',
  whatIfNote: (days: number) =>
    `Your last ${days} days' charges scored again under these thresholds. Charges your thresholds declined were never captured, so no chargeback could label them: a looser threshold's fraud rate is a lower bound.`,
  reviewAt: 'Review from score',
  declineAt: 'Decline from score',
  outOfOrder: 'The review score must not be above the decline score.',
  simulate: 'Simulate',
  fraudAmongApproved: 'Fraud among those approved',
};

export type RiskMessages = typeof risk;

/** The operator's pages' words: an area catalogue, loaded with their chunk (i18n/index.ts `loadArea`). */
export const operator = {
  queueTitle: 'Review queue',
  queueIntro: 'Submerchants waiting for review, the longest waiting first.',
  queueEmpty: 'Nothing waits for review.',
  submerchantsIntro: "Every merchant's submerchants: open one to review, block or unblock it.",
  queueHead: {
    submerchant: 'Submerchant',
    merchant: 'Merchant',
    taxId: 'Tax id',
    submitted: 'Submitted',
    waiting: 'Waiting',
  },
  approve: 'Approve',
  expire: 'Expire',
  approveDocument: (type: string, id: string) => `Approve ${type} ${id}`,
  rejectDocument: (type: string, id: string) => `Reject ${type} ${id}`,
  expireDocument: (type: string, id: string) => `Expire ${type} ${id}`,
  documentApproved: (type: string) => `${type} approved.`,
  documentExpired: (type: string) => `${type} marked expired.`,
  reviewTitle: (name: string) => `Review: ${name}`,
  approveSubmerchant: 'Approve submerchant',
  rejectSubmerchant: 'Reject submerchant',
  approved: 'Submerchant approved: it is active.',
  backToQueue: '← Review queue',
  rejectionAdvice:
    "A rejection's reason tells the merchant what to fix; the merchant then requests resubmission, corrects the data and submits again.",
  rejectSubmerchantTitle: 'Reject the submerchant?',
  rejectDocumentTitle: (type: string) => `Reject ${type}?`,
  documentRejected: 'Document rejected.',
  submerchantRejected: 'Submerchant rejected.',
  block: 'Block',
  unblock: 'Unblock',
  blockTitle: 'Block the submerchant? Its waiting receivables are suspended until you unblock it.',
  unblockTitle:
    'Unblock the submerchant? Its suspended receivables wait for their dates again, and its held money goes back to waiting funds.',
  blockedSince: (at: string, reason: string) =>
    `Blocked since ${at}: its receivables are suspended; withdrawals, anticipations and new split shares are refused. Reason: ${reason}`,
  submerchantBlocked: 'Submerchant blocked.',
  submerchantUnblocked: 'Submerchant unblocked: its receivables wait for their dates again.',
  merchantsTitle: 'Merchants',
  merchantsHead: { merchant: 'Merchant', created: 'Created', limits: 'Requests per minute (empty: default)' },
  categories: { transactions: 'transactions', queries: 'queries', default: 'default' },
  saveLimits: 'Save limits',
  pricingOf: (name: string) => `Pricing of ${name}`,
  limitsSaved: (name: string) => `Rate limits of ${name} saved.`,
};

export type OperatorMessages = typeof operator;

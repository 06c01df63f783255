/**
 * The Withdraw page's words, loaded with its page rather than with the language's catalogue (the first load's
 * budget: docs/decisions/dashboard-area-catalogues.md), its error codes and statuses too; the menu's word stays in
 * the catalogue.
 */
export const withdrawals = {
  title: 'Withdrawals',
  available: (amount: string) => `Available to withdraw: ${amount}`,
  caption: 'Withdrawals',
  head: {
    created: 'Created',
    amount: 'Amount',
    fee: 'Fee',
    method: 'Method',
    status: 'Status',
    details: 'Details',
    actions: 'Actions',
  },
  empty: 'No withdrawals yet.',
  methods: { pix: 'PIX', ted: 'TED' },
  statuses: {
    pending: 'pending',
    processing: 'processing',
    transferred: 'transferred',
    failed: 'failed',
    canceled: 'canceled',
    returned: 'returned',
  },
  errors: {
    WITHDRAWAL_BELOW_MINIMUM: 'The amount is below the smallest withdrawal.',
    WITHDRAWAL_INSUFFICIENT_BALANCE: 'The amount plus the fee is more than your available balance.',
    WITHDRAWAL_BANK_ACCOUNT_NOT_OWNERS: 'This bank account is not the owner’s.',
    WITHDRAWAL_BANK_ACCOUNT_NOT_VERIFIED: 'This bank account is not verified yet.',
    WITHDRAWAL_PIX_UNAVAILABLE: 'This bank does not take part in PIX: choose TED.',
    WITHDRAWAL_SUBMERCHANT_NOT_ACTIVE: 'The submerchant is not active.',
    WITHDRAWAL_ALREADY_PENDING: 'Another withdrawal is still pending: wait a few seconds, or cancel it.',
  },
  endToEnd: (id: string) => `E2E ${id}`,
  cancel: 'Cancel',
  cancelLabel: (amount: string) => `Cancel the withdrawal of ${amount}`,
  canceled: 'Withdrawal canceled: its amount and fee are available again.',
  form: {
    title: 'Withdraw',
    account: 'Bank account',
    noAccount: 'You have no verified bank account yet: add one under Bank accounts.',
    method: 'Method',
    amount: 'Amount (R$)',
    amountInvalid: 'Type an amount in reais, e.g. 150,00.',
    review: 'Review',
  },
  confirm: {
    title: 'Confirm the withdrawal',
    amount: 'Reaches the account',
    fee: 'Fee',
    total: 'Leaves your balance',
    account: 'Bank account',
    submit: 'Confirm withdrawal',
  },
  created: 'Withdrawal created: it is on its way to your bank account.',
};

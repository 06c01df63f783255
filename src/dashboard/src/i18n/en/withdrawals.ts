/** The Withdraw page's words, an area loaded with its page (i18n/index.ts). */
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

export type WithdrawalMessages = typeof withdrawals;

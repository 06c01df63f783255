/** What the operator's queues share (submerchants, bank accounts, anticipations, charges in review): the dialog
 * asking a decision's reason, and how long an item has waited. */
export const queue = {
  reject: 'Reject',
  reason: 'Reason (the merchant sees it)',
  reasonRequired: 'Write the reason: the merchant reads it.',
  wait: {
    minutes: (m: number) => `${m} min`,
    hours: (h: number, m: number) => `${h} h ${m} min`,
    days: (d: number) => `${d} days`,
  },
};

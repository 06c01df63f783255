/** The words of the receivable domain, shared by the service, the table's type and the schemas. */
export const RECEIVABLE_STATUSES = ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'] as const;
export type ReceivableStatus = (typeof RECEIVABLE_STATUSES)[number];

/** The payment methods a charge may name; the schema documents them, the service refuses others (422). */
export const SUPPORTED_PAYMENT_METHODS = ['credit_card', 'pix', 'boleto'] as const;

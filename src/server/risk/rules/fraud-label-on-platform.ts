import { riskRule } from '../types.js';

/**
 * Another merchant of the platform judged the buyer, the card or the device as fraud. The merchant sees this
 * code only: never which merchant, charge or value matched (the labels are keyed hashes, risk/labels.ts).
 */
export const fraudLabelOnPlatform = riskRule({
  code: 'FRAUD_LABEL_ON_PLATFORM',
  description: 'The buyer (CPF/CNPJ), card or device was labeled fraud at another merchant of the platform.',
  applies: ({ history }) => history.labels?.elsewhere === true,
});

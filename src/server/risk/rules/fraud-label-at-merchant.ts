import { riskRule } from '../types.js';

/**
 * This merchant already judged the buyer, the card or the device as fraud: it rejected a review of theirs, or
 * received a fraud chargeback (risk/labels.ts). The merchant's own verdict on the same person.
 */
export const fraudLabelAtMerchant = riskRule({
  code: 'FRAUD_LABEL_AT_MERCHANT',
  description:
    'The buyer (CPF/CNPJ), card or device was labeled fraud at your account: a rejected review or a fraud dispute.',
  applies: ({ history }) => history.labels?.here === true,
});

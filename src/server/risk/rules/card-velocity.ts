import { riskRule } from '../types.js';

export const cardVelocity = riskRule({
  code: 'CARD_VELOCITY',
  description:
    "The same card number already made the policy's maximum of charges with this merchant within the window " +
    '(3 in 60 minutes by default).',
  // A charge without a card (PIX, boleto) has no card count: null never fires.
  applies: ({ history }, policy) =>
    history.cardCharges !== null && history.cardCharges >= policy.velocity.card.maxCharges,
});

import { riskRule } from '../types.js';

export const cardVelocity = riskRule({
  code: 'CARD_VELOCITY',
  description:
    "The same card number already made the policy's maximum of charges with this merchant within the window " +
    '(3 in 60 minutes by default).',
  applies: ({ history }, policy) => history.cardCharges >= policy.velocity.card.maxCharges,
});

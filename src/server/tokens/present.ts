import type { CardToken } from './service.js';

export function presentToken(token: CardToken) {
  return {
    id: token.id,
    card: {
      brand: token.card.brand,
      last4: token.card.last4,
      exp_month: token.card.expMonth,
      exp_year: token.card.expYear,
    },
    expires_at: token.expiresAt,
    created_at: token.createdAt,
  };
}

import { type ApiError, businessRule, type ErrorCatalogue } from '../errors.js';
import type { TokenConsumption } from './service.js';

export const TOKENS_ERRORS = {
  TOKEN_NOT_FOUND: {
    status: 422,
    meaning: 'A charge names a card_token that is not one of your card tokens.',
    action: 'Tokenize the card with sdk.cards.tokenize() (POST /v1/tokens, public key) and pass its id.',
  },
  TOKEN_EXPIRED: {
    status: 422,
    meaning: 'The card token is older than its 15 minutes.',
    action: 'Tokenize the card again and charge with the new token.',
  },
  TOKEN_ALREADY_USED: {
    status: 422,
    meaning: 'The card token was already consumed by a charge (tokens are single use).',
    action: 'Tokenize the card again for each charge.',
  },
} as const satisfies ErrorCatalogue;

type TokenRefusal = Extract<TokenConsumption, { ok: false }>['reason'];

const REFUSALS = {
  not_found: () =>
    businessRule(
      'TOKEN_NOT_FOUND',
      'card_token does not name one of your card tokens: create one with sdk.cards.tokenize() (POST /v1/tokens) ' +
        'using your public key.',
      [{ field: 'card_token', message: 'card_token was not found.' }],
    ),
  expired: () =>
    businessRule(
      'TOKEN_EXPIRED',
      'The card token has expired (tokens live 15 minutes): tokenize the card again.',
      [{ field: 'card_token', message: 'card_token has expired.' }],
    ),
  already_used: () =>
    businessRule(
      'TOKEN_ALREADY_USED',
      'The card token was already used by a charge; tokens are single use: tokenize the card again.',
      [{ field: 'card_token', message: 'card_token was already used.' }],
    ),
} as const;

/** How a charge answers a `card_token` it could not consume: all 422, naming the field. */
export function chargeTokenError(reason: TokenRefusal): ApiError {
  return REFUSALS[reason]();
}

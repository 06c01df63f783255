import { type ApiError, businessRule } from '../errors.js';
import type { TokenConsumption } from './service.js';

type TokenRefusal = Extract<TokenConsumption, { ok: false }>['reason'];

const TOKEN_ERRORS = {
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
  return TOKEN_ERRORS[reason]();
}

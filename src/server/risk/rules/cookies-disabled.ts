import type { RiskRule } from '../types.js';

export const cookiesDisabled: RiskRule = {
  code: 'COOKIES_DISABLED',
  description: 'The browser declared cookies disabled (cookies_accepted: false).',
  applies: ({ session }) => !session.declared.cookiesAccepted,
};

import { riskRule } from '../types.js';

export const cookiesDisabled = riskRule({
  code: 'COOKIES_DISABLED',
  description: 'The browser declared cookies disabled (cookies_accepted: false).',
  applies: ({ session }) => !session.declared.cookiesAccepted,
});

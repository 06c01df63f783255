import { riskRule } from '../types.js';

export const browserTypeMismatch = riskRule({
  code: 'BROWSER_TYPE_MISMATCH',
  description:
    "The browser type the SDK declared differs from the service's reading of the declared user agent or of " +
    "the request's User-Agent header.",
  applies: ({ session }) => {
    const declared = session.declared.type;
    if (session.parsed.declared.type !== declared) return true;
    return session.parsed.header !== null && session.parsed.header.type !== declared;
  },
});

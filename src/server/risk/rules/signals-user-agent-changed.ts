import { riskRule } from '../types.js';

export const signalsUserAgentChanged = riskRule({
  code: 'SIGNALS_USER_AGENT_CHANGED',
  description:
    "The signals request's User-Agent header differs from the one of the request that created the session: " +
    'one page sends both, so the report came from another client.',
  applies: ({ session }) => {
    const observed = session.signals?.observed;
    return observed !== undefined && observed !== null && observed.userAgent !== session.observed.userAgent;
  },
});

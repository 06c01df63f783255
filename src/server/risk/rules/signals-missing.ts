import { riskRule } from '../types.js';

export const signalsMissing = riskRule({
  code: 'SIGNALS_MISSING',
  description:
    'No signals report reached the session before the charge: the client never ran the SDK (a script that only ' +
    'created the session) or never let it report. Found with PROFILE_MISSING; together they reach review.',
  applies: ({ session }) => session.signals === null,
});

import { riskRule } from '../types.js';

export const profileMissing = riskRule({
  code: 'PROFILE_MISSING',
  description:
    'No device profile reached the service before the charge: the SDK sent no signals, or its profiler failed ' +
    '(blocked, timed out).',
  applies: ({ session }) => session.signals === null || session.signals.profiler === null,
});

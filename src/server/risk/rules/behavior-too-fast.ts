import { riskRule } from '../types.js';

export const behaviorTooFast = riskRule({
  code: 'BEHAVIOR_TOO_FAST',
  description:
    'A form typed by hand (enough keystrokes) was done, from the first input to the card token request, in less ' +
    'than 40 ms per keystroke: 300 words a minute, fields switched included, which no person sustains.',
  applies: ({ session }, { behavior: limits }) => {
    const report = session.behavior?.report;
    if (!report || report.first_input_ms === null || report.keys < limits.minKeystrokes) return false;
    return report.elapsed_ms - report.first_input_ms < report.keys * limits.minMsPerKey;
  },
});

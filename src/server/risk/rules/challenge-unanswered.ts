import { judgeSessionChallenge } from '../../fraud/challenge/index.js';
import { deviceOf, sessionUserAgent } from '../device.js';
import { riskRule } from '../types.js';

export const challengeUnanswered = riskRule({
  code: 'CHALLENGE_UNANSWERED',
  description:
    'A profiler report arrived without the answers to the session challenge (or without one of its probes): ' +
    "the SDK's profiler always answers, so the report came from elsewhere (a script, or a custom profiler that " +
    'does not pass the challenge on).',
  applies: ({ session }) =>
    judgeSessionChallenge(session, deviceOf(sessionUserAgent(session)).engine)?.status === 'unanswered',
});

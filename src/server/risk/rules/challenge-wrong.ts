import { judgeSessionChallenge } from '../../fraud/challenge/index.js';
import { deviceOf, sessionUserAgent } from '../device.js';
import { riskRule } from '../types.js';

export const challengeWrong = riskRule({
  code: 'CHALLENGE_WRONG',
  description:
    "The profiler's answers to the session challenge are not the claimed engine's: an answer differs from what " +
    "the engine of the user agent (Blink, Gecko, WebKit) gives for this session's nonce, or the report answers " +
    "another session's nonce (a replayed report). The report was not made by that engine in this session.",
  applies: ({ session }) =>
    judgeSessionChallenge(session, deviceOf(sessionUserAgent(session)).engine)?.status === 'failed',
});

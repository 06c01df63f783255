import { describe, expect, test } from 'vitest';
import { expectedAnswers } from '../../../../src/server/fraud/challenge/index.js';
import type { FraudSession } from '../../../../src/server/fraud/service.js';
import type { BrowserEngine } from '../../../../src/server/fraud/user-agent.js';
import { DEFAULT_POLICY } from '../../../../src/server/risk/policy.js';
import { challengeUnanswered } from '../../../../src/server/risk/rules/challenge-unanswered.js';
import { challengeWrong } from '../../../../src/server/risk/rules/challenge-wrong.js';
import { CHROME_UA, FIREFOX_UA, input, policy, session } from '../fixtures.js';

const MINIBROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15';
const UNKNOWN_ENGINE = 'curl/8.5.0';

const challenge = {
  nonce: 'qmX3m1Zb7o4kVJ1rQw2cTg',
  probes: ['attribute-name-error', 'transform-matrix', 'selector-text-case', 'datetime-normalisation'],
};

/** The answers `engine` gives to `asked` (by default the session's challenge). */
const answersOf = (engine: BrowserEngine, asked = challenge) => ({
  nonce: asked.nonce,
  answers: Object.fromEntries(asked.probes.map((id) => [id, expectedAnswers(asked.nonce, id)![engine][0]!])),
});

/** A session with a challenge whose browser claims `userAgent` and whose profiler replied `reply`. */
function answered(
  userAgent: string,
  reply: { nonce: string; answers: Record<string, string> } | undefined,
  overrides: { challenge?: FraudSession['challenge'] } = {},
): FraudSession {
  const base = session({ declared: { userAgent }, observed: { userAgent } });
  return {
    ...base,
    challenge: overrides.challenge === undefined ? challenge : overrides.challenge,
    signals: {
      ...base.signals!,
      profiler: { ...base.signals!.profiler!, ...(reply && { challenge: reply }) },
    },
  };
}

const codes = (value: FraudSession) =>
  [challengeWrong, challengeUnanswered]
    .filter((rule) => rule.applies(input(value), policy))
    .map((rule) => rule.code);

describe('CHALLENGE_WRONG and CHALLENGE_UNANSWERED', () => {
  test.each<[string, BrowserEngine]>([
    [CHROME_UA, 'Blink'],
    [FIREFOX_UA, 'Gecko'],
    [MINIBROWSER, 'WebKit'],
  ])('neither for the answers of the engine the user agent claims (%s)', (userAgent, engine) => {
    expect(codes(answered(userAgent, answersOf(engine)))).toEqual([]);
  });

  test("CHALLENGE_WRONG for another engine's answers: a Chrome user agent, Node or Firefox behind it", () => {
    expect(codes(answered(CHROME_UA, answersOf('Gecko')))).toEqual(['CHALLENGE_WRONG']);
    expect(codes(answered(FIREFOX_UA, answersOf('Blink')))).toEqual(['CHALLENGE_WRONG']);
    expect(codes(answered(MINIBROWSER, answersOf('Blink')))).toEqual(['CHALLENGE_WRONG']);
  });

  test('CHALLENGE_WRONG for one answer off, or for a probe that failed in the page', () => {
    const reply = answersOf('Blink');
    expect(
      codes(
        answered(CHROME_UA, {
          ...reply,
          answers: { ...reply.answers, 'transform-matrix': 'matrix(1, 0, 0, 1, 0, 0)' },
        }),
      ),
    ).toEqual(['CHALLENGE_WRONG']);
    expect(
      codes(
        answered(CHROME_UA, {
          ...reply,
          answers: { ...reply.answers, 'selector-text-case': 'probe-failed' },
        }),
      ),
    ).toEqual(['CHALLENGE_WRONG']);
  });

  test("CHALLENGE_WRONG for a replayed report: another session's right answers to its own nonce", () => {
    const earlier = { nonce: 'Zm9yZWlnbi1zZXNzaW9uMQ', probes: challenge.probes };
    expect(codes(answered(CHROME_UA, answersOf('Blink', earlier)))).toEqual(['CHALLENGE_WRONG']);
  });

  test('CHALLENGE_UNANSWERED for a report without answers, or missing one', () => {
    expect(codes(answered(CHROME_UA, undefined))).toEqual(['CHALLENGE_UNANSWERED']);
    const { 'transform-matrix': _left, ...rest } = answersOf('Blink').answers;
    expect(codes(answered(CHROME_UA, { nonce: challenge.nonce, answers: rest }))).toEqual([
      'CHALLENGE_UNANSWERED',
    ]);
  });

  test('neither when the rule cannot see: an unknown engine, a session older than the challenge, no report', () => {
    expect(codes(answered(UNKNOWN_ENGINE, answersOf('Gecko')))).toEqual([]);
    expect(codes(answered(UNKNOWN_ENGINE, undefined))).toEqual([]);
    expect(codes(answered(CHROME_UA, undefined, { challenge: null }))).toEqual([]);
    expect(codes(answered(CHROME_UA, answersOf('Gecko'), { challenge: null }))).toEqual([]);
    expect(codes({ ...session({ signals: null }), challenge })).toEqual([]);
    expect(
      codes({ ...session({ signals: { profiler: null, profilerError: 'timeout' } }), challenge }),
    ).toEqual([]);
  });

  test('the engine is read from the User-Agent header the service saw, not the one the page declared', () => {
    const base = answered(CHROME_UA, answersOf('Blink'));
    const spoofed = { ...base, declared: { ...base.declared, userAgent: FIREFOX_UA } };
    expect(codes(spoofed)).toEqual([]);
    const scripted = { ...base, observed: { ...base.observed, userAgent: FIREFOX_UA } };
    expect(codes(scripted)).toEqual(['CHALLENGE_WRONG']);
  });

  test('weights: a wrong answer alone reviews (a browser update must not decline buyers), unanswered reviews', () => {
    const { weights, thresholds } = DEFAULT_POLICY;
    expect(weights.CHALLENGE_WRONG).toBeGreaterThanOrEqual(thresholds.review);
    expect(weights.CHALLENGE_WRONG).toBeLessThan(thresholds.decline);
    expect(weights.CHALLENGE_UNANSWERED).toBeGreaterThanOrEqual(thresholds.review);
  });
});

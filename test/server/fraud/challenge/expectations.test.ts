import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { PROBES, drawsFor as profilerDraws } from '../../../../src/sdk/src/profiler/challenge/index.js';
import { drawsFor as serviceDraws } from '../../../../src/server/fraud/challenge/draws.js';
import {
  checkChallenge,
  expectedAnswers,
  newChallenge,
  PROBE_EXPECTATIONS,
  PROBES_PER_SESSION,
} from '../../../../src/server/fraud/challenge/index.js';

const nonces = (count: number) => Array.from({ length: count }, () => randomBytes(16).toString('base64url'));
const IDS = PROBE_EXPECTATIONS.map((probe) => probe.id);

describe('the challenge catalogue', () => {
  test('the profiler and the service know the same probes, at least ten', () => {
    expect(PROBES.map((probe) => probe.id)).toEqual(IDS);
    expect(IDS.length).toBeGreaterThanOrEqual(10);
  });

  test('the profiler and the service draw the same inputs from a nonce, and other inputs from another', () => {
    for (const nonce of nonces(200)) {
      for (const probe of PROBES) {
        const service = PROBE_EXPECTATIONS.find((candidate) => candidate.id === probe.id)!;
        expect(service.inputs(serviceDraws(nonce, probe.id)), `${probe.id} ${nonce}`).toEqual(
          probe.inputs(profilerDraws(nonce, probe.id)),
        );
      }
    }
    const [first, second] = nonces(2);
    const changed = IDS.filter(
      (id) => expectedAnswers(first!, id)!.Blink[0] !== expectedAnswers(second!, id)!.Blink[0],
    );
    expect(changed.length).toBeGreaterThanOrEqual(IDS.length - 1);
  });

  test('what each engine answers, for one nonce, as measured in Chromium 156, Firefox ESR 153 and WebKitGTK 2.50', () => {
    const nonce = 'AAAAAAAAAAAAAAAAAAAAAA';
    const selector = PROBE_EXPECTATIONS[0]!.inputs(serviceDraws(nonce, 'selector-error')) as {
      method: string;
      selector: string;
    };
    expect(expectedAnswers(nonce, 'selector-error')).toEqual({
      Blink: [
        `SyntaxError: Failed to execute '${selector.method}' on 'Element': '${selector.selector}' is not a valid selector.`,
      ],
      Gecko: [`SyntaxError: Element.${selector.method}: '${selector.selector}' is not a valid selector`],
      WebKit: [`SyntaxError: '${selector.selector}' is not a valid selector.`],
    });
    const native = expectedAnswers(nonce, 'native-source')!;
    expect(native.Blink[0]).toMatch(/^function (get |set )?\w+\(\) \{ \[native code\] \}\|function /);
    expect(native.Gecko).toEqual(native.WebKit);
    expect(native.Gecko[0]).toMatch(/^function \w+\(\) \{\n {4}\[native code\]\n\}\|/);
    // Gecko keeps a datetime's milliseconds as given today; the standard's normalised form is accepted too.
    const datetime = expectedAnswers(nonce, 'datetime-normalisation')!;
    expect(datetime.Gecko).toEqual([datetime.Blink[0]! + '0', datetime.Blink[0]]);
    expect(expectedAnswers(nonce, 'no-such-probe')).toBeNull();
  });

  test('alphas and scales are drawn where the engines print them differently', () => {
    for (const nonce of nonces(300)) {
      const alpha = expectedAnswers(nonce, 'colour-alpha')!;
      expect(alpha.Blink).toEqual(alpha.WebKit);
      expect(alpha.Gecko).not.toEqual(alpha.Blink);
      const matrix = expectedAnswers(nonce, 'transform-matrix')!;
      expect(matrix.Blink).toEqual(matrix.Gecko);
      expect(matrix.WebKit).not.toEqual(matrix.Blink);
    }
  });
});

describe('newChallenge', () => {
  test('a 16-byte base64url nonce and four distinct known probes, new every time', () => {
    const challenges = Array.from({ length: 200 }, newChallenge);
    for (const { nonce, probes } of challenges) {
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(nonce, 'base64url')).toHaveLength(16);
      expect(probes).toHaveLength(PROBES_PER_SESSION);
      expect(new Set(probes).size).toBe(PROBES_PER_SESSION);
      for (const id of probes) expect(IDS).toContain(id);
    }
    expect(new Set(challenges.map((challenge) => challenge.nonce)).size).toBe(200);
    // Every probe gets picked: 200 picks of 4 out of 11 leave none out but by a broken draw.
    expect(new Set(challenges.flatMap((challenge) => challenge.probes))).toEqual(new Set(IDS));
  });
});

describe('checkChallenge', () => {
  const challenge = {
    nonce: 'N0nceN0nceN0nceN0nce00',
    probes: ['selector-error', 'colour-alpha', 'native-source', 'keyframes-text'],
  };
  const answersOf = (engine: 'Blink' | 'Gecko' | 'WebKit') =>
    Object.fromEntries(challenge.probes.map((id) => [id, expectedAnswers(challenge.nonce, id)![engine][0]!]));

  test("passed when every answer is the claimed engine's", () => {
    expect(
      checkChallenge(challenge, { nonce: challenge.nonce, answers: answersOf('Gecko') }, 'Gecko'),
    ).toEqual({
      status: 'passed',
      nonceMatches: true,
      probes: Object.fromEntries(challenge.probes.map((id) => [id, 'passed'])),
    });
  });

  test("failed when the answers are another engine's, with each probe that told", () => {
    const check = checkChallenge(
      challenge,
      { nonce: challenge.nonce, answers: answersOf('Blink') },
      'WebKit',
    );
    expect(check.status).toBe('failed');
    expect(check.probes['native-source']).toBe('failed');
    expect(check.probes['selector-error']).toBe('failed');
    expect(check.probes['colour-alpha']).toBe('passed');
  });

  test('failed when one answer differs (a marker of a probe that threw included)', () => {
    const answers = { ...answersOf('Blink'), 'keyframes-text': 'probe-failed' };
    const check = checkChallenge(challenge, { nonce: challenge.nonce, answers }, 'Blink');
    expect(check).toMatchObject({
      status: 'failed',
      probes: { 'keyframes-text': 'failed', 'selector-error': 'passed' },
    });
  });

  test("failed when it answers another session's nonce, even with that session's right answers", () => {
    const other = { ...challenge, nonce: 'AnotherNonceAnotherNon' };
    const replayed = {
      nonce: other.nonce,
      answers: Object.fromEntries(
        other.probes.map((id) => [id, expectedAnswers(other.nonce, id)!.Blink[0]!]),
      ),
    };
    expect(checkChallenge(challenge, replayed, 'Blink')).toMatchObject({
      status: 'failed',
      nonceMatches: false,
    });
  });

  test('unanswered without answers, or with a probe left out', () => {
    expect(checkChallenge(challenge, undefined, 'Blink').status).toBe('unanswered');
    const { 'native-source': _left, ...answers } = answersOf('Blink');
    expect(checkChallenge(challenge, { nonce: challenge.nonce, answers }, 'Blink')).toMatchObject({
      status: 'unanswered',
      probes: { 'native-source': 'unanswered', 'selector-error': 'passed' },
    });
  });
});

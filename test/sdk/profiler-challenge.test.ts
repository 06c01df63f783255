import { randomBytes } from 'node:crypto';
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import {
  answerChallenge,
  PROBE_FAILED,
  PROBE_UNKNOWN,
  PROBES,
} from '../../src/sdk/src/profiler/challenge/index.js';
import { checkChallenge, PROBE_EXPECTATIONS } from '../../src/server/fraud/challenge/index.js';

// The challenge needs a real engine. A script in Node has no DOM at all: every probe fails. One that brings a DOM
// written in JavaScript (happy-dom, what a script would reach for) answers, but not as any browser engine does.
// test/efficacy/challenge-engines.test.ts runs the same probes in the three real engines.
const ENGINES = ['Blink', 'Gecko', 'WebKit'] as const;
const IDS = PROBES.map((probe) => probe.id);
const nonces = Array.from({ length: 20 }, () => randomBytes(16).toString('base64url'));

describe('the challenge outside a browser', () => {
  it('in plain Node (no document) every probe answers the failure marker, and fails for every engine', () => {
    for (const nonce of nonces) {
      const reply = answerChallenge({ nonce, probes: IDS }, globalThis as never);
      expect(new Set(Object.values(reply.answers))).toEqual(new Set([PROBE_FAILED]));
      for (const engine of ENGINES)
        expect(checkChallenge({ nonce, probes: IDS }, reply, engine).status).toBe('failed');
    }
  });

  it('with a JavaScript DOM (happy-dom) the answers are wrong for every engine: at most one probe passes', () => {
    const window = new Window({ url: 'https://shop.example.com/' });
    try {
      for (const nonce of nonces) {
        const challenge = { nonce, probes: IDS };
        const reply = answerChallenge(challenge, window as unknown as globalThis.Window);
        for (const engine of ENGINES) {
          const check = checkChallenge(challenge, reply, engine);
          expect(check.status).toBe('failed');
          const passed = Object.entries(check.probes).filter(([, verdict]) => verdict === 'passed');
          // A pick of four holds a failing probe whichever four it is.
          expect(passed.length, `${engine}: ${passed.map(([id]) => id)}`).toBeLessThanOrEqual(IDS.length - 4);
        }
      }
    } finally {
      window.happyDOM.abort();
      window.close();
    }
  });

  it('answers a marker for a probe it does not know, and the service has every probe the profiler has', () => {
    const reply = answerChallenge({ nonce: 'n', probes: ['from-a-newer-service'] }, globalThis as never);
    expect(reply.answers).toEqual({ 'from-a-newer-service': PROBE_UNKNOWN });
    expect(PROBE_EXPECTATIONS.map((probe) => probe.id)).toEqual(IDS);
  });
});

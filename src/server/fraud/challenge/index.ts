import { randomBytes, randomInt } from 'node:crypto';
import type { FraudSession } from '../service.js';
import type { BrowserEngine } from '../user-agent.js';
import { attributeNameError } from './attribute-name-error.js';
import { calcSimplification } from './calc-simplification.js';
import { colourAlpha } from './colour-alpha.js';
import { datetimeNormalisation } from './datetime-normalisation.js';
import { drawsFor } from './draws.js';
import { easingError } from './easing-error.js';
import { keyframesText } from './keyframes-text.js';
import { nativeSource } from './native-source.js';
import { rangeOffsetError } from './range-offset-error.js';
import { selectorError } from './selector-error.js';
import { selectorTextCase } from './selector-text-case.js';
import { transformMatrix } from './transform-matrix.js';
import type { EngineAnswers, ProbeExpectation } from './types.js';

export type { EngineAnswers, ProbeExpectation } from './types.js';

/** Every probe a session may be given; the SDK's profiler has the same ids (src/sdk/src/profiler/challenge/). */
export const PROBE_EXPECTATIONS: readonly ProbeExpectation[] = [
  selectorError,
  attributeNameError,
  easingError,
  rangeOffsetError,
  calcSimplification,
  colourAlpha,
  transformMatrix,
  keyframesText,
  datetimeNormalisation,
  nativeSource,
  selectorTextCase,
];

/** Probes per session: four of eleven give 330 picks, each with its own inputs per nonce. */
export const PROBES_PER_SESSION = 4;

/** What the session answer carries: a nonce and the probes to run with it. */
export interface SessionChallenge {
  nonce: string;
  probes: string[];
}

/** What the profiler reported for it. */
export interface ChallengeReply {
  nonce: string;
  answers: Record<string, string>;
}

/** A nonce of 16 random bytes (base64url) and a uniform pick of probes, both from the OS's random source. */
export function newChallenge(): SessionChallenge {
  const ids = PROBE_EXPECTATIONS.map((probe) => probe.id);
  for (let i = 0; i < PROBES_PER_SESSION; i++) {
    const j = randomInt(i, ids.length);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return { nonce: randomBytes(16).toString('base64url'), probes: ids.slice(0, PROBES_PER_SESSION) };
}

/** What each engine family answers to one probe for one nonce; null for a probe this service does not know. */
export function expectedAnswers(nonce: string, probeId: string): EngineAnswers | null {
  const probe = PROBE_EXPECTATIONS.find((candidate) => candidate.id === probeId);
  return probe ? probe.answers(probe.inputs(drawsFor(nonce, probeId))) : null;
}

export type ProbeVerdict = 'passed' | 'failed' | 'unanswered';

/**
 * The verdict on a session's challenge for the engine its user agent claims: `unanswered` when the report has no
 * answers (or misses a probe's), `failed` when it answers another session's nonce or any probe as the claimed
 * engine does not.
 */
export interface ChallengeCheck {
  status: ProbeVerdict;
  nonceMatches: boolean;
  probes: Record<string, ProbeVerdict>;
}

export function checkChallenge(
  challenge: SessionChallenge,
  reply: ChallengeReply | undefined,
  engine: BrowserEngine,
): ChallengeCheck {
  const nonceMatches = reply?.nonce === challenge.nonce;
  const probes: Record<string, ProbeVerdict> = {};
  for (const id of challenge.probes) {
    const answer = reply?.answers[id];
    if (answer === undefined) probes[id] = 'unanswered';
    else if (!nonceMatches) probes[id] = 'failed';
    else probes[id] = expectedAnswers(challenge.nonce, id)?.[engine].includes(answer) ? 'passed' : 'failed';
  }
  const verdicts = Object.values(probes);
  const status =
    reply !== undefined && !nonceMatches
      ? 'failed'
      : verdicts.includes('failed')
        ? 'failed'
        : verdicts.includes('unanswered')
          ? 'unanswered'
          : 'passed';
  return { status, nonceMatches, probes };
}

/**
 * A session's challenge verdict for `engine`, the engine its user agent claims; null when it cannot be judged:
 * no challenge (a session made before there was one), no profiler report yet, or an engine the service does
 * not know.
 */
export function judgeSessionChallenge(
  session: Pick<FraudSession, 'challenge' | 'signals'>,
  engine: BrowserEngine | null,
): ChallengeCheck | null {
  const profiler = session.signals?.profiler;
  if (!session.challenge || !profiler || !engine) return null;
  return checkChallenge(session.challenge, profiler.challenge, engine);
}

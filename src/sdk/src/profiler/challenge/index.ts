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
import type { Probe } from './types.js';

export { drawsFor } from './draws.js';
export type { Probe } from './types.js';

/** Every probe the service may pick, by id (src/server/fraud/challenge/ holds each one's expected answers). */
export const PROBES: readonly Probe[] = [
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

/** The answer of a probe that threw where it should not (an API this engine lacks). */
export const PROBE_FAILED = 'probe-failed';
/** The answer to a probe id this build does not know. */
export const PROBE_UNKNOWN = 'probe-unknown';

/** What the session answer asks: its nonce and the ids of the probes to run. */
export interface Challenge {
  nonce: string;
  probes: string[];
}

/** The report's part: the nonce answered and each probe's answer by id. */
export interface ChallengeAnswers {
  nonce: string;
  answers: Record<string, string>;
}

/** Runs the probes the challenge names in this page, each with its inputs drawn from the nonce. */
export function answerChallenge(
  { nonce, probes }: Challenge,
  window: Window,
  catalogue: readonly Probe[] = PROBES,
): ChallengeAnswers {
  const answers: Record<string, string> = {};
  for (const id of probes) {
    const probe = catalogue.find((candidate) => candidate.id === id);
    try {
      answers[id] = probe ? probe.answer(probe.inputs(drawsFor(nonce, id)), window) : PROBE_UNKNOWN;
    } catch {
      answers[id] = PROBE_FAILED;
    }
  }
  return { nonce, answers };
}

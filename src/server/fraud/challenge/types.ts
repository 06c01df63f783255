import type { BrowserEngine } from '../user-agent.js';
import type { Draws } from './draws.js';

/** What each engine family answers to a probe: one text, or more where an engine has two known variants. */
export type EngineAnswers = Readonly<Record<BrowserEngine, readonly string[]>>;

/**
 * The service's side of one probe of the session challenge (the SDK's side: src/sdk/src/profiler/challenge/):
 * the same inputs drawn from the nonce, and what each engine family answers to them, as measured in Chromium,
 * Firefox ESR and WebKitGTK (test/efficacy/challenge-engines.test.ts measures it again).
 */
export interface ProbeExpectation<Inputs = unknown> {
  id: string;
  inputs(draws: Draws): Inputs;
  answers(inputs: Inputs): EngineAnswers;
}

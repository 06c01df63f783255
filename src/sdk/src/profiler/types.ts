import type { BehaviorReport } from './behavior/types.js';

/** The profiler's part of `POST /v1/fraud/sessions/:id/signals`. */
export interface ProfilerReport {
  /** Who produced the report, e.g. `fingerprintjs+botd`. */
  provider: string;
  visitor_id: string;
  /** 0–1: how sure the provider is of `visitor_id`. */
  confidence?: number;
  /** A bounded selection of device attributes the risk engine reads. */
  components: Record<string, unknown>;
  /** Automation verdict. */
  bot: { detected: boolean; kind?: string };
  /** Named automation detectors that do not rest on `navigator.webdriver` (./detectors): name → fired. Optional for other providers. */
  detectors?: Record<string, boolean>;
  /** The answers to the session challenge (./challenge): the session's nonce and each probe's answer. */
  challenge?: { nonce: string; answers: Record<string, string> };
  duration_ms: number;
}

export interface ProfilerContext {
  sessionId: string;
  /** Aborted when the SDK stops collection (teardown, deadline): stop work and settle. */
  signal: AbortSignal;
  /** The session answer's challenge, handed over unread (the provider answers it in its report). */
  challenge?: { nonce: string; probes: string[] };
  /**
   * Registers how to read the session's behaviour aggregates: `sdk.cards.tokenize()` calls `read()` and sends
   * the result with the card token request (`fraud.behavior`). Collect until `signal` aborts (teardown).
   */
  registerBehavior?(read: () => BehaviorReport): void;
}

/**
 * A device-profiling provider: collect once for the session and resolve the report. Pass one as the
 * `profiler` option to replace the default (FingerprintJS + BotD, loaded lazily).
 */
export type ProfilerFactory = (context: ProfilerContext) => Promise<ProfilerReport>;

/** The report, or why there is none (`timeout`, `stopped`, `disabled`, or the provider's error). */
export type ProfilerOutcome = { report: ProfilerReport } | { error: string };

/** A running collection: `stop()` abandons it; `done` settles exactly once and never rejects. */
export interface Profiling {
  stop(): void;
  done: Promise<ProfilerOutcome>;
}

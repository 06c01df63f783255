import type { Behavior } from '../../../src/server/fraud/behavior.js';
import type { FraudSession, FraudSignals } from '../../../src/server/fraud/service.js';
import { readUserAgent } from '../../../src/server/fraud/user-agent.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import type { RiskInput } from '../../../src/server/risk/types.js';
import { chromiumComponents } from '../../helpers/signals.js';

export const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

export const policy = DEFAULT_POLICY;

/** A person typing a card with a mouse: irregular rhythm, real dwell, pointer travel, a minute on the form. */
export const HUMAN_BEHAVIOR: Behavior = {
  elapsed_ms: 61_000,
  first_input_ms: 9_000,
  fields: 5,
  keyless_fields: 0,
  keys: 40,
  ime_keys: 0,
  inputs: 40,
  keyless_inputs: 0,
  pastes: 0,
  drops: 0,
  autofills: 0,
  intervals: { count: 34, median: 190, mad: 60, sd: 140, min: 45 },
  dwell: { count: 40, median: 95, mad: 20, sd: 30, min: 40 },
  flight: { count: 30, median: 110, mad: 55, sd: 120, min: 2 },
  overlaps: 4,
  mouse_clicks: 3,
  touch_clicks: 0,
  pen_clicks: 0,
  travelled_clicks: 3,
  mouse_moves: 180,
  path_px: 2400,
  touches: 0,
  focus_changes: 6,
  tabs: 2,
  submits: 0,
};

/** A clean session (nothing suspicious), readings computed by the service's own parser; override what a test needs. */
export function session(
  overrides: {
    declared?: Partial<FraudSession['declared']>;
    observed?: Partial<FraudSession['observed']>;
    signals?: Partial<FraudSignals> | null;
    challenge?: FraudSession['challenge'];
    headers?: Partial<FraudSession['headers']>;
    behavior?: Partial<Behavior> | null;
  } = {},
): FraudSession {
  const declared = {
    ipAddress: null,
    type: 'Chrome' as const,
    hostName: 'shop.example.com',
    cookiesAccepted: true,
    userAgent: CHROME_UA,
    ...overrides.declared,
  };
  const observed = {
    ipAddress: '198.51.100.7',
    userAgent: CHROME_UA,
    origin: 'https://shop.example.com',
    ...overrides.observed,
  };
  const signals =
    overrides.signals === null
      ? null
      : {
          receivedAt: '2026-11-21T12:00:01.000Z',
          observed: { ipAddress: observed.ipAddress, userAgent: observed.userAgent },
          ipLookup: { status: 'ok' as const, ipAddress: '198.51.100.7', durationMs: 30 },
          profiler: {
            provider: 'fingerprintjs+botd',
            visitorId: 'visitor-1',
            components: chromiumComponents('Windows'),
            bot: { detected: false },
            durationMs: 480,
          },
          profilerError: null,
          visitorId: 'visitor-1',
          automation: false,
          ...overrides.signals,
        };
  return {
    id: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    declared,
    observed,
    parsed: {
      declared: readUserAgent(declared.userAgent),
      header: observed.userAgent === null ? null : readUserAgent(observed.userAgent),
    },
    headers: { creation: null, signals: null, ...overrides.headers },
    signals,
    challenge: overrides.challenge ?? null,
    behavior: overrides.behavior
      ? { receivedAt: '2026-11-21T12:01:00.000Z', report: { ...HUMAN_BEHAVIOR, ...overrides.behavior } }
      : null,
    chargeId: null,
    consumedAt: null,
    expiresAt: '2026-11-21T12:30:00.000Z',
    createdAt: '2026-11-21T12:00:00.000Z',
    updatedAt: '2026-11-21T12:00:00.000Z',
  };
}

/** A clean session whose profiler reported `components`, from a browser whose user agent is `userAgent`. */
export function profiled(components: Record<string, unknown>, userAgent = CHROME_UA): FraudSession {
  return session({
    declared: { userAgent },
    observed: { userAgent },
    signals: {
      profiler: {
        provider: 'fingerprintjs+botd',
        visitorId: 'v',
        components,
        bot: { detected: false },
        durationMs: 480,
      },
    },
  });
}

export function input(
  sessionValue: FraudSession = session(),
  overrides: { allowedHosts?: string[]; history?: Partial<RiskInput['history']> } = {},
): RiskInput {
  return {
    session: sessionValue,
    merchant: { allowedHosts: overrides.allowedHosts ?? [] },
    history: { deviceCharges: 0, cardCharges: 0, ...overrides.history },
  };
}

/**
 * A clean session whose two requests (creation, signals) carried `userAgent` and the headers `creation` and
 * `signals` (the same by default), profiled with `components`.
 */
export function requested(
  userAgent: string,
  creation: FraudSession['headers']['creation'],
  options: { signals?: FraudSession['headers']['signals']; components?: Record<string, unknown> } = {},
): FraudSession {
  const base = options.components ? profiled(options.components, userAgent) : profiled({}, userAgent);
  if (!options.components) base.signals!.profiler = null;
  return {
    ...base,
    headers: { creation, signals: options.signals === undefined ? creation : options.signals },
  };
}

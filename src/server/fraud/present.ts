import type { Static } from '@sinclair/typebox';
import { judgeSessionChallenge } from './challenge/index.js';
import type { FraudSessionSchema } from './schemas.js';
import { type FraudSession, fraudSessionStatus } from './service.js';
import { readEngine } from './user-agent.js';

/** The declared address, or the SDK's lookup answer once the signals brought it. */
function declaredIpAddress({ declared, signals, createdAt }: FraudSession) {
  if (declared.ipAddress !== null) {
    return {
      ip_address: declared.ipAddress,
      ip_address_source: 'setup' as const,
      ip_address_received_at: createdAt,
    };
  }
  const lookedUp = signals?.ipLookup.ipAddress;
  return lookedUp
    ? {
        ip_address: lookedUp,
        ip_address_source: 'ip_lookup' as const,
        ip_address_received_at: signals!.receivedAt,
      }
    : { ip_address: null, ip_address_source: null, ip_address_received_at: null };
}

/** The challenge and its verdict per probe, judged for the engine the risk engine reads (risk/device.ts). */
function presentChallenge(session: FraudSession) {
  if (!session.challenge) return null;
  const engine = readEngine(session.observed.userAgent ?? session.declared.userAgent);
  const check = judgeSessionChallenge(session, engine);
  return {
    nonce: session.challenge.nonce,
    probes: session.challenge.probes,
    engine,
    status: check?.status ?? ('not_checked' as const),
    nonce_matches: check?.nonceMatches ?? null,
    verdicts: check?.probes ?? {},
  };
}

export function presentFraudSession(session: FraudSession, now: Date): Static<typeof FraudSessionSchema> {
  const { declared, observed, parsed, signals } = session;
  return {
    id: session.id,
    status: fraudSessionStatus(session, now),
    declared: {
      ...declaredIpAddress(session),
      type: declared.type,
      host_name: declared.hostName,
      cookies_accepted: declared.cookiesAccepted,
      user_agent: declared.userAgent,
    },
    observed: {
      ip_address: observed.ipAddress,
      user_agent: observed.userAgent,
      origin: observed.origin,
      headers: session.headers.creation,
      user_agent_type: parsed.header?.type ?? null,
      declared_user_agent_type: parsed.declared.type,
      user_agent_readings: parsed,
    },
    signals: signals && {
      received_at: signals.receivedAt,
      observed: signals.observed && {
        ip_address: signals.observed.ipAddress,
        user_agent: signals.observed.userAgent,
        headers: session.headers.signals,
      },
      visitor_id: signals.visitorId,
      automation: signals.automation,
      ip_lookup: {
        status: signals.ipLookup.status,
        ...(signals.ipLookup.ipAddress !== undefined && { ip_address: signals.ipLookup.ipAddress }),
        ...(signals.ipLookup.source !== undefined && { source: signals.ipLookup.source }),
        duration_ms: signals.ipLookup.durationMs,
      },
      profiler: signals.profiler && {
        provider: signals.profiler.provider,
        visitor_id: signals.profiler.visitorId,
        ...(signals.profiler.confidence !== undefined && { confidence: signals.profiler.confidence }),
        components: signals.profiler.components,
        bot: signals.profiler.bot,
        ...(signals.profiler.detectors && { detectors: signals.profiler.detectors }),
        ...(signals.profiler.challenge && { challenge: signals.profiler.challenge }),
        duration_ms: signals.profiler.durationMs,
      },
      profiler_error: signals.profilerError,
    },
    challenge: presentChallenge(session),
    behavior: session.behavior && { received_at: session.behavior.receivedAt, ...session.behavior.report },
    charge_id: session.chargeId,
    created_at: session.createdAt,
    expires_at: session.expiresAt,
    consumed_at: session.consumedAt,
  };
}

import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { newId } from '../core/ids.js';
import { hashesEqual, hashKey } from '../core/keys.js';
import { flag, fromJson, readFlag, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { prepared, preparedInsert } from '../db/prepared.js';
import type { Behavior } from './behavior.js';
import { type ChallengeReply, newChallenge, type SessionChallenge } from './challenge/index.js';
import type { RequestHeaders } from './request-headers.js';
import type { SignalsBody } from './schemas.js';
import type { FraudSessionsTable } from './table.js';
import { type BrowserType, readUserAgent, type UserAgentReading } from './user-agent.js';

/** A session lives exactly this long from its creation, and is single use within it. */
export const FRAUD_SESSION_TTL_MS = 30 * 60 * 1000;

/** Expired, never-consumed sessions are deleted this many days after they expired. */
export const FRAUD_SESSION_RETENTION_DAYS = 7;

export type FraudSessionStatus = 'open' | 'consumed' | 'expired';

/** The five fields of the published interface, as the browser declared them. */
export interface DeclaredBrowserData {
  ipAddress: string | null;
  type: BrowserType;
  hostName: string;
  cookiesAccepted: boolean;
  userAgent: string;
}

/** What the service saw on the request that created the session. */
export interface ObservedRequest {
  ipAddress: string;
  userAgent: string | null;
  origin: string | null;
}

export interface IpLookupSignal {
  status: 'ok' | 'timeout' | 'error';
  ipAddress?: string;
  /** The lookup URL that answered. */
  source?: string;
  durationMs: number;
}

export interface ProfilerSignal {
  provider: string;
  visitorId: string;
  confidence?: number;
  components: Record<string, unknown>;
  bot: { detected: boolean; kind?: string };
  /** The profiler's named automation detectors (name → fired); absent from older or other providers. */
  detectors?: Record<string, boolean>;
  /** The profiler's answers to the session challenge; absent from reports that carry none. */
  challenge?: ChallengeReply;
  durationMs: number;
}

/** What the service saw on a request: its source IP and `User-Agent` header. */
export interface ObservedSource {
  ipAddress: string;
  userAgent: string | null;
}

/** The SDK's one report for a session: the public IP lookup and the profiler's report (or why there is none). */
export interface FraudSignals {
  receivedAt: string;
  /** What the service saw on the signals request; null for reports stored before it was recorded. */
  observed: ObservedSource | null;
  ipLookup: IpLookupSignal;
  profiler: ProfilerSignal | null;
  profilerError: string | null;
  /** Shortcuts into `profiler`, also stored in their own columns. */
  visitorId: string | null;
  /** The profiler's automation verdict; null when there was no profiler report. */
  automation: boolean | null;
}

export interface FraudSession {
  id: string;
  merchantId: string;
  declared: DeclaredBrowserData;
  observed: ObservedRequest;
  /** The service's ua-parser-js readings of the declared user agent and of the `User-Agent` header. */
  parsed: { declared: UserAgentReading; header: UserAgentReading | null };
  /**
   * The corroborating headers of the creating and of the signals request; null where the service did not record
   * them (header evidence off, a request before migration 0045, no signals yet).
   */
  headers: { creation: RequestHeaders | null; signals: RequestHeaders | null };
  signals: FraudSignals | null;
  /** The challenge the session answer carried; null for sessions created before there was one. */
  challenge: SessionChallenge | null;
  /** The last behaviour report (sent with the card token request) and when it came; null without one. */
  behavior: { receivedAt: string; report: Behavior } | null;
  chargeId: string | null;
  consumedAt: string | null;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** Consumed wins over expired: a consumed session is the evidence of its charge, whatever the time. */
export function fraudSessionStatus(
  session: Pick<FraudSession, 'consumedAt' | 'expiresAt'>,
  now: Date,
): FraudSessionStatus {
  if (session.consumedAt !== null) return 'consumed';
  return now.toISOString() >= session.expiresAt ? 'expired' : 'open';
}

/** The signals body as the SDK sends it (snake_case, the wire format) is stored as-is, without its token. */
export type SignalsReport = Omit<SignalsBody, 'signals_token'>;

function toSignals(row: Selectable<FraudSessionsTable>): FraudSignals | null {
  if (row.signals === null || row.signals_at === null) return null;
  const stored = fromJson<SignalsReport>(row.signals, { ip_lookup: { status: 'error', duration_ms: 0 } });
  const lookup = stored.ip_lookup;
  const profiler = stored.profiler;
  return {
    receivedAt: row.signals_at,
    observed:
      row.signals_ip_address === null
        ? null
        : { ipAddress: row.signals_ip_address, userAgent: row.signals_user_agent },
    ipLookup: {
      status: lookup.status,
      ...(lookup.ip_address !== undefined && { ipAddress: lookup.ip_address }),
      ...(lookup.source !== undefined && { source: lookup.source }),
      durationMs: lookup.duration_ms,
    },
    profiler: profiler
      ? {
          provider: profiler.provider,
          visitorId: profiler.visitor_id,
          ...(profiler.confidence !== undefined && { confidence: profiler.confidence }),
          components: profiler.components,
          bot: profiler.bot,
          ...(profiler.detectors && { detectors: profiler.detectors }),
          ...(profiler.challenge && { challenge: profiler.challenge }),
          durationMs: profiler.duration_ms,
        }
      : null,
    profilerError: stored.profiler_error ?? null,
    visitorId: row.visitor_id,
    automation: row.automation === null ? null : readFlag(row.automation),
  };
}

export function toFraudSession(row: Selectable<FraudSessionsTable>): FraudSession {
  const readings = fromJson<{ declared: UserAgentReading; header: UserAgentReading | null }>(
    row.user_agent_readings,
    { declared: readUserAgent(row.declared_user_agent), header: null },
  );
  return {
    id: row.id,
    merchantId: row.merchant_id,
    declared: {
      ipAddress: row.declared_ip_address,
      type: row.declared_type as BrowserType,
      hostName: row.declared_host_name,
      cookiesAccepted: readFlag(row.declared_cookies_accepted),
      userAgent: row.declared_user_agent,
    },
    observed: {
      ipAddress: row.observed_ip_address,
      userAgent: row.observed_user_agent,
      origin: row.observed_origin,
    },
    parsed: readings,
    headers: {
      creation: fromJson<RequestHeaders | null>(row.request_headers, null),
      signals: fromJson<RequestHeaders | null>(row.signals_request_headers, null),
    },
    signals: toSignals(row),
    challenge:
      row.challenge_nonce === null
        ? null
        : { nonce: row.challenge_nonce, probes: fromJson<string[]>(row.challenge_probes, []) },
    behavior:
      row.behavior === null || row.behavior_at === null
        ? null
        : { receivedAt: row.behavior_at, report: fromJson<Behavior>(row.behavior, {} as Behavior) },
    chargeId: row.charge_id,
    consumedAt: row.consumed_at,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The token that binds a session's report to the browser that created it: only its SHA-256 is stored, so
 * whoever reads the database (or learns the session id from the merchant's server) cannot report for it.
 */
function newSignalsToken(): string {
  return randomBytes(24).toString('base64url');
}

// Every request of the SDK's checkout creates one: one statement, prepared once (db/prepared.ts).
const insertFraudSession = preparedInsert<Database, 'fraud_sessions'>('fraud_sessions');

export async function createFraudSession(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    declared: DeclaredBrowserData;
    observed: ObservedRequest;
    /** Absent or null when not seen: evidence off (`VIGIA_HEADER_EVIDENCE=false`), or no request (seeding). */
    headers?: RequestHeaders | null;
    now: Date;
  },
): Promise<{ session: FraudSession; signalsToken: string; challenge: SessionChallenge }> {
  const { declared, observed, now } = input;
  const readings = {
    declared: readUserAgent(declared.userAgent),
    header: observed.userAgent === null ? null : readUserAgent(observed.userAgent),
  };
  const created = now.toISOString();
  const signalsToken = newSignalsToken();
  const challenge = newChallenge();
  const row: Selectable<FraudSessionsTable> = {
    id: newId(),
    merchant_id: input.merchantId,
    declared_ip_address: declared.ipAddress,
    declared_type: declared.type,
    declared_host_name: declared.hostName,
    declared_cookies_accepted: flag(declared.cookiesAccepted),
    declared_user_agent: declared.userAgent,
    observed_ip_address: observed.ipAddress,
    observed_user_agent: observed.userAgent,
    observed_origin: observed.origin,
    parsed_type: readings.declared.type,
    observed_type: readings.header?.type ?? null,
    user_agent_readings: toJson(readings),
    visitor_id: null,
    automation: null,
    signals: null,
    signals_at: null,
    signals_token_hash: hashKey(signalsToken),
    signals_ip_address: null,
    signals_user_agent: null,
    challenge_nonce: challenge.nonce,
    challenge_probes: toJson(challenge.probes),
    request_headers: input.headers ? toJson(input.headers) : null,
    signals_request_headers: null,
    behavior: null,
    behavior_at: null,
    charge_id: null,
    consumed_at: null,
    expires_at: new Date(now.getTime() + FRAUD_SESSION_TTL_MS).toISOString(),
    created_at: created,
    updated_at: created,
  };
  await insertFraudSession(db, row);
  return { session: toFraudSession(row), signalsToken, challenge };
}

/** The whole session (declared, observed, parsed, signals) for its merchant; null for unknown or another's. */
export async function getFraudSession(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<FraudSession | null> {
  const row = await db
    .selectFrom('fraud_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row ? toFraudSession(row) : null;
}

export type FraudSessionRefusal = 'not_found' | 'expired' | 'already_used';

/** Why a session cannot be used now, read after a conditional update changed nothing. */
async function refusalOf(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
  now: Date,
): Promise<FraudSessionRefusal | 'open'> {
  const session = await getFraudSession(db, merchantId, id);
  if (!session) return 'not_found';
  const status = fraudSessionStatus(session, now);
  return status === 'consumed' ? 'already_used' : status;
}

type SessionUpdate = UpdateQueryBuilder<Database, 'fraud_sessions', 'fraud_sessions', UpdateResult>;

/**
 * Narrows an UPDATE to the merchant's session while it is open, so that of racing writers at most one wins (with
 * the caller's further conditions). Values may be a prepared statement's markers.
 */
function whereOpen(
  query: SessionUpdate,
  input: { merchantId: string; sessionId: string; now: string },
): SessionUpdate {
  return query
    .where('id', '=', input.sessionId)
    .where('merchant_id', '=', input.merchantId)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', input.now);
}

/**
 * Narrows an UPDATE to the merchant's open session whose signals token hashes to `tokenHash`: only the page that
 * created the session can report for it (its signals, its behaviour).
 */
export function whereReporter(
  query: SessionUpdate,
  input: { merchantId: string; sessionId: string; now: string; tokenHash: string },
): SessionUpdate {
  // Comparing digests in SQL leaks nothing useful: timing reveals at most a prefix of a SHA-256.
  return whereOpen(query, input).where('signals_token_hash', '=', input.tokenHash);
}

/** What a consuming UPDATE is run with. */
export type ConsumeValues = Record<'sessionId' | 'merchantId' | 'chargeId' | 'now', string>;

/**
 * The consuming UPDATE of a prepared statement (db/prepared.ts), its values marked: it answers the consumed row,
 * or nothing. A statement that must go with it (the charge's card lock) builds on it.
 */
export function consumingUpdate(db: Kysely<Database>, value: <T = string>(name: keyof ConsumeValues) => T) {
  const now = value('now');
  return whereOpen(
    db.updateTable('fraud_sessions').set({ consumed_at: now, charge_id: value('chargeId'), updated_at: now }),
    { sessionId: value('sessionId'), merchantId: value('merchantId'), now },
  ).returningAll();
}

const consumeSession = prepared<Database, keyof ConsumeValues, Selectable<FraudSessionsTable>>(
  consumingUpdate,
);

/** Runs the consuming UPDATE alone: the consumed row, or nothing. */
export async function consumeSessionRow(
  db: Kysely<Database>,
  values: ConsumeValues,
): Promise<Selectable<FraudSessionsTable> | undefined> {
  return (await consumeSession(db, values)).rows[0];
}

/** Runs a session's consuming UPDATE: alone by default, or with statements that must go with it. */
export type RunSessionUpdate = (values: ConsumeValues) => Promise<Selectable<FraudSessionsTable> | undefined>;

export type ConsumeResult = { ok: true; session: FraudSession } | { ok: false; reason: FraudSessionRefusal };

/**
 * Marks the session used by `chargeId`. One conditional UPDATE decides, so of any number of racing charges,
 * on one instance or many sharing the database, exactly one wins. Pass the charge's transaction as `db` so
 * that a charge rolled back also un-consumes its session. `run` runs the UPDATE (the charge's risk step locks the
 * card in the same statement).
 */
export async function consumeFraudSession(
  db: Kysely<Database>,
  input: { merchantId: string; sessionId: string; chargeId: string; now: Date },
  run: RunSessionUpdate = (values) => consumeSessionRow(db, values),
): Promise<ConsumeResult> {
  const now = input.now.toISOString();
  const row = await run({
    sessionId: input.sessionId,
    merchantId: input.merchantId,
    chargeId: input.chargeId,
    now,
  });
  if (row) return { ok: true, session: toFraudSession(row) };
  const refusal = await refusalOf(db, input.merchantId, input.sessionId, input.now);
  // 'open' here means the row changed between the two statements; it was not ours, so it is used.
  return { ok: false, reason: refusal === 'open' ? 'already_used' : refusal };
}

export type SignalsRefusal = FraudSessionRefusal | 'already_reported' | 'token_invalid';

export type RecordSignalsResult = { ok: true; sessionId: string } | { ok: false; reason: SignalsRefusal };

// A report's statement is prepared
// (docs/decisions/prepared-statements-for-hot-writes-fixed-count-benchmark.md; the cost it saves:
// bench/README.md, "Figures behind code comments"). It returns only the id, so that the report's 16 KiB are
// not sent back.
const reportSignals = prepared((db: Kysely<Database>, value) =>
  whereReporter(
    db.updateTable('fraud_sessions').set({
      signals: value('signals'),
      signals_at: value('now'),
      signals_ip_address: value('ipAddress'),
      signals_user_agent: value('userAgent'),
      signals_request_headers: value<string | null>('headers'),
      visitor_id: value('visitorId'),
      automation: value<number>('automation'),
      updated_at: value('now'),
    }),
    {
      sessionId: value('sessionId'),
      merchantId: value('merchantId'),
      now: value('now'),
      tokenHash: value('tokenHash'),
    },
  )
    .where('signals_at', 'is', null)
    .returning('id'),
);

/**
 * Stores the SDK's one signals report of an open session, with what the service saw on the request, when it
 * carries the session's signals token; a second report is refused.
 */
export async function recordFraudSignals(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    sessionId: string;
    signalsToken: string;
    report: SignalsReport;
    observed: ObservedSource;
    headers?: RequestHeaders | null;
    now: Date;
  },
): Promise<RecordSignalsResult> {
  const now = input.now.toISOString();
  const profiler = input.report.profiler;
  const tokenHash = hashKey(input.signalsToken);
  const { rows } = await reportSignals(db, {
    sessionId: input.sessionId,
    merchantId: input.merchantId,
    now,
    tokenHash,
    signals: toJson(input.report),
    ipAddress: input.observed.ipAddress,
    userAgent: input.observed.userAgent,
    headers: input.headers ? toJson(input.headers) : null,
    visitorId: profiler?.visitor_id ?? null,
    automation: profiler ? flag(profiler.bot.detected) : null,
  });
  const row = rows[0];
  if (row) return { ok: true, sessionId: row.id };
  const refusal = await refusalOf(db, input.merchantId, input.sessionId, input.now);
  if (refusal !== 'open') return { ok: false, reason: refusal };
  // Open but not updated: the token is not this session's, or the session already has its report.
  const stored = await db
    .selectFrom('fraud_sessions')
    .select('signals_token_hash')
    .where('id', '=', input.sessionId)
    .where('merchant_id', '=', input.merchantId)
    .executeTakeFirst();
  const tokenMatches = stored?.signals_token_hash ? hashesEqual(stored.signals_token_hash, tokenHash) : false;
  return { ok: false, reason: tokenMatches ? 'already_reported' : 'token_invalid' };
}

/**
 * Deletes sessions that expired more than `retentionDays` ago and were never consumed. Consumed sessions stay:
 * they are the evidence behind their charge's fraud analysis. Returns how many were deleted.
 */
export async function purgeExpiredFraudSessions(
  db: Kysely<Database>,
  now: Date,
  retentionDays = FRAUD_SESSION_RETENTION_DAYS,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  const result = await db
    .deleteFrom('fraud_sessions')
    .where('expires_at', '<', cutoff)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

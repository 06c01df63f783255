import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { preparedClaim } from '../db/claim.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';

/**
 * Taking due deliveries with a lease: `locked_by` names the worker, `lease_expires_at` says until when. A
 * delivery whose lease has expired (its worker crashed or was killed mid-delivery) is due again, so every
 * delivery is attempted at least once more after a crash. Two workers never hold the same delivery at once:
 * db/claim.ts hands each claimed row to one claimer only, on both dialects.
 *
 * Fairly: a worker lends one merchant, and one receiving host, at most a share of its slots (`limits`), and
 * takes due deliveries round-robin between merchants (each merchant's oldest first, then each one's second, …),
 * so that a merchant whose endpoints never answer, or a burst of one merchant's events, leaves the other
 * merchants' deliveries free slots at the next claim instead of a queue behind its timeouts.
 *
 * The claim is one statement compiled once (db/claim.ts, `prepared`): the worker sends it at every poll, and
 * building and compiling this query cost more than running it.
 */

export interface InFlightLimits {
  /** Deliveries of one merchant a worker holds at once. */
  perMerchant: number;
  /** Deliveries to one host (host:port of the endpoint's URL) a worker holds at once, whatever the merchant. */
  perHost: number;
}

export interface ClaimRequest {
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
  limits: InFlightLimits;
}

/** The claim's values, each marked with `value(name)` where the statement uses it. */
type ClaimValue = 'workerId' | 'now' | 'leaseExpiresAt' | 'limit' | 'perMerchant' | 'perHost';
type Value = <T = string>(name: ClaimValue) => T;

/** A delivery that may be claimed now, judged on its own columns (what db/claim.ts checks again as it locks). */
function claimable(eb: ExpressionBuilder<Database, 'webhook_deliveries'>, now: string) {
  return eb.and([
    eb('webhook_deliveries.status', '=', sql.lit('pending')),
    eb('webhook_deliveries.next_attempt_at', '<=', now),
    eb.or([
      eb('webhook_deliveries.lease_expires_at', 'is', null),
      eb('webhook_deliveries.lease_expires_at', '<=', now),
    ]),
  ]);
}

/** What this worker holds now: its live leases, with their endpoints (for the host). */
function leases(db: Kysely<Database>, value: Value) {
  return db
    .selectFrom('webhook_deliveries as held')
    .innerJoin('webhook_endpoints as held_endpoint', 'held_endpoint.id', 'held.endpoint_id')
    .where('held.locked_by', '=', value('workerId'))
    .where('held.lease_expires_at', '>', value('now'));
}

/** What this worker holds, counted per merchant and per host: computed once per claim (a few dozen leases). */
const heldPerMerchant = (db: Kysely<Database>, value: Value) =>
  leases(db, value)
    .select(['held.merchant_id', (eb) => eb.fn.countAll<number>().as('held')])
    .groupBy('held.merchant_id');
const heldPerHost = (db: Kysely<Database>, value: Value) =>
  leases(db, value)
    .select(['held_endpoint.host', (eb) => eb.fn.countAll<number>().as('held')])
    .groupBy('held_endpoint.host');

/**
 * Each active endpoint's oldest due deliveries, as many as one merchant may be lent, leaving out endpoints whose
 * host is at its limit. A merchant's oldest due deliveries are among its endpoints' oldest, so ranking this small
 * set (at most endpoints × perMerchant rows) is as fair as ranking the whole backlog, and costs index seeks per
 * endpoint instead of a sort of every due delivery.
 */
function oldestDueOfEachEndpoint(db: Kysely<Database>, value: Value) {
  const now = value('now');
  const fullHosts = leases(db, value)
    .select('held_endpoint.host')
    .groupBy('held_endpoint.host')
    .having((eb) => eb.fn.countAll(), '>=', value<number>('perHost'));
  const endpoints = db
    .selectFrom('webhook_endpoints')
    .where('webhook_endpoints.status', '=', sql.lit('active'))
    .where('webhook_endpoints.host', 'not in', fullHosts);
  const oldest = (eb: ExpressionBuilder<Database, 'webhook_endpoints'>) =>
    eb
      .selectFrom('webhook_deliveries')
      .whereRef('webhook_deliveries.endpoint_id', '=', 'webhook_endpoints.id')
      .where((inner) => claimable(inner, now))
      .orderBy('webhook_deliveries.next_attempt_at')
      .orderBy('webhook_deliveries.id')
      .limit(value<number>('perMerchant'));
  const columns = ['d.id', 'd.merchant_id', 'd.next_attempt_at', 'webhook_endpoints.host'] as const;
  if (dialectOf(db) === 'postgres') {
    return endpoints
      .innerJoinLateral(
        (eb) => oldest(eb).select(['id', 'merchant_id', 'next_attempt_at']).as('d'),
        (join) => join.onTrue(),
      )
      .select(columns);
  }
  // SQLite has no LATERAL. A CROSS JOIN keeps the endpoints as its outer loop (SQLite does not reorder one): it
  // runs the correlated IN once per endpoint and looks those ids up by key.
  return endpoints
    .crossJoin('webhook_deliveries as d')
    .where((eb) => eb('d.id', 'in', oldest(eb).select('webhook_deliveries.id')))
    .select(columns);
}

/**
 * The ids to claim, in three steps over each endpoint's oldest due deliveries (above). 1: rank them within their
 * merchant by due time. 2: keep those within their merchant's remaining share (its limit less what this worker
 * holds of it), ranked within their host in round-robin order. 3: keep those within their host's remaining share,
 * in round-robin order, up to `limit`. A paused endpoint's deliveries wait (keeping their place) until it is active
 * again; so do those to a host at its limit, without using up their merchant's turns.
 */
function fairCandidates(db: Kysely<Database>, value: Value) {
  const due = db.selectFrom(oldestDueOfEachEndpoint(db, value).as('oldest')).select((eb) => [
    'oldest.id',
    'oldest.merchant_id',
    'oldest.next_attempt_at',
    'oldest.host',
    eb.fn
      .agg<number>('row_number')
      .over((over) =>
        over.partitionBy('oldest.merchant_id').orderBy('oldest.next_attempt_at').orderBy('oldest.id'),
      )
      .as('merchant_rank'),
  ]);
  const withinMerchantShare = db
    .selectFrom(due.as('due'))
    .leftJoin(heldPerMerchant(db, value).as('merchant_held'), 'merchant_held.merchant_id', 'due.merchant_id')
    .select((eb) => [
      'due.id',
      'due.next_attempt_at',
      'due.merchant_rank',
      'due.host',
      eb.fn
        .agg<number>('row_number')
        .over((over) =>
          over
            .partitionBy('due.host')
            .orderBy('due.merchant_rank')
            .orderBy('due.next_attempt_at')
            .orderBy('due.id'),
        )
        .as('host_rank'),
    ])
    .where((eb) =>
      eb(
        eb('due.merchant_rank', '+', eb.fn.coalesce('merchant_held.held', eb.lit(0))),
        '<=',
        value<number>('perMerchant'),
      ),
    );
  return db
    .selectFrom(withinMerchantShare.as('fair'))
    .leftJoin(heldPerHost(db, value).as('host_held'), 'host_held.host', 'fair.host')
    .select('fair.id')
    .where((eb) =>
      eb(
        eb('fair.host_rank', '+', eb.fn.coalesce('host_held.held', eb.lit(0))),
        '<=',
        value<number>('perHost'),
      ),
    )
    .orderBy('fair.merchant_rank')
    .orderBy('fair.next_attempt_at')
    .orderBy('fair.id')
    .limit(value<number>('limit'));
}

const claimStatement = preparedClaim<Database, 'webhook_deliveries', ClaimValue>({
  table: 'webhook_deliveries',
  candidates: fairCandidates,
  where: (eb, value) => claimable(eb, value('now')),
  set: (value) => ({ locked_by: value('workerId'), lease_expires_at: value('leaseExpiresAt') }),
});

/**
 * Leases up to `limit` due deliveries to `workerId`, fairly (see above); returns their ids. `db` may be a
 * transaction: the worker records the outcomes that finished and claims in one commit.
 */
export function claimDueDeliveries(db: Kysely<Database>, request: ClaimRequest): Promise<string[]> {
  return claimStatement(db, {
    workerId: request.workerId,
    now: request.now.toISOString(),
    leaseExpiresAt: new Date(request.now.getTime() + request.leaseMs).toISOString(),
    limit: request.limit,
    perMerchant: request.limits.perMerchant,
    perHost: request.limits.perHost,
  });
}

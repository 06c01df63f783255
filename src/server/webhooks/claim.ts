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
 * Fairly: a worker lends one endpoint, one merchant and one receiving host at most a share of its slots
 * (`limits`), and takes due deliveries round-robin between merchants (each merchant's oldest first, then each
 * one's second, …) and, within a merchant, between its endpoints, so that an endpoint that never answers or answers
 * slowly holds its own slots only: the merchant's other endpoints, and other merchants, are claimed at the next
 * turn instead of queueing behind its timeouts (docs/decisions/webhook-slots-per-endpoint.md).
 *
 * The claim is one statement compiled once (db/claim.ts, `prepared`): the worker sends it at every poll, and
 * building and compiling this query cost more than running it.
 */

export interface InFlightLimits {
  /** Deliveries to one endpoint a worker holds at once. */
  perEndpoint: number;
  /** Deliveries of one merchant a worker holds at once, all its endpoints together. */
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
type ClaimValue = 'workerId' | 'now' | 'leaseExpiresAt' | 'limit' | 'perEndpoint' | 'perMerchant' | 'perHost';
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

/** What this worker holds, counted per endpoint, merchant and host: computed once per claim (its leases). */
const heldPerEndpoint = (db: Kysely<Database>, value: Value) =>
  leases(db, value)
    .select(['held.endpoint_id', (eb) => eb.fn.countAll<number>().as('held')])
    .groupBy('held.endpoint_id');
const heldPerMerchant = (db: Kysely<Database>, value: Value) =>
  leases(db, value)
    .select(['held.merchant_id', (eb) => eb.fn.countAll<number>().as('held')])
    .groupBy('held.merchant_id');
const heldPerHost = (db: Kysely<Database>, value: Value) =>
  leases(db, value)
    .select(['held_endpoint.host', (eb) => eb.fn.countAll<number>().as('held')])
    .groupBy('held_endpoint.host');

/**
 * Each active endpoint's oldest due deliveries, as many as one endpoint may be lent, leaving out endpoints whose
 * host is at its limit. No more of an endpoint's can be claimed, so ranking this small set (at most endpoints ×
 * perEndpoint rows) is as fair as ranking the whole backlog, and costs index seeks per endpoint instead of a sort
 * of every due delivery.
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
      .limit(value<number>('perEndpoint'));
  const columns = [
    'd.id',
    'd.merchant_id',
    'd.next_attempt_at',
    'webhook_endpoints.id as endpoint_id',
    'webhook_endpoints.host',
  ] as const;
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
 * The ids to claim, in four steps over each endpoint's oldest due deliveries (above). 1: keep those within their
 * endpoint's remaining share (its limit less what this worker holds of it); each one's place is its slot at its
 * endpoint (held + rank). 2: rank them within their merchant round-robin between its endpoints (every endpoint's
 * next slot, then every one's next), by due time between equal places. 3: keep those within their merchant's
 * remaining share, ranked within their host in round-robin order. 4: keep those within their host's remaining
 * share, in round-robin order between merchants, up to `limit`. A paused endpoint's deliveries wait (keeping their
 * place) until it is active again; so do those to a host at its limit, without using up their merchant's turns.
 */
function fairCandidates(db: Kysely<Database>, value: Value) {
  const ranked = db
    .selectFrom(oldestDueOfEachEndpoint(db, value).as('oldest'))
    .leftJoin(
      heldPerEndpoint(db, value).as('endpoint_held'),
      'endpoint_held.endpoint_id',
      'oldest.endpoint_id',
    )
    .select((eb) => [
      'oldest.id',
      'oldest.merchant_id',
      'oldest.next_attempt_at',
      'oldest.host',
      eb(
        eb.fn
          .agg<number>('row_number')
          .over((over) =>
            over.partitionBy('oldest.endpoint_id').orderBy('oldest.next_attempt_at').orderBy('oldest.id'),
          ),
        '+',
        eb.fn.coalesce('endpoint_held.held', eb.lit(0)),
      ).as('endpoint_slot'),
    ]);
  const due = db
    .selectFrom(ranked.as('ranked'))
    .where('ranked.endpoint_slot', '<=', value<number>('perEndpoint'))
    .select((eb) => [
      'ranked.id',
      'ranked.merchant_id',
      'ranked.next_attempt_at',
      'ranked.host',
      eb.fn
        .agg<number>('row_number')
        .over((over) =>
          over
            .partitionBy('ranked.merchant_id')
            .orderBy('ranked.endpoint_slot')
            .orderBy('ranked.next_attempt_at')
            .orderBy('ranked.id'),
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
    perEndpoint: request.limits.perEndpoint,
    perMerchant: request.limits.perMerchant,
    perHost: request.limits.perHost,
  });
}

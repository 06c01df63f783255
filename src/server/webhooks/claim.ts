import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, VigiaStore } from '../schema.js';

/**
 * Taking due deliveries with a lease: `locked_by` names the worker, `lease_expires_at` says until when. A
 * delivery whose lease has expired (its worker crashed or was killed mid-delivery) is due again, so every
 * delivery is attempted at least once more after a crash. Two workers never hold the same delivery at once:
 * PostgreSQL claims with `SELECT … FOR UPDATE SKIP LOCKED` (concurrent claimers skip each other's rows instead
 * of waiting), SQLite with one conditional UPDATE (SQLite runs one writer at a time, and has no row locks).
 */

export interface ClaimRequest {
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
}

function due(eb: ExpressionBuilder<Database, 'webhook_deliveries'>, now: string) {
  return eb.and([
    eb('webhook_deliveries.status', '=', 'pending'),
    eb('webhook_deliveries.next_attempt_at', '<=', now),
    eb.or([
      eb('webhook_deliveries.lease_expires_at', 'is', null),
      eb('webhook_deliveries.lease_expires_at', '<=', now),
    ]),
    // A paused endpoint's deliveries wait (keeping their place) until it is active again.
    eb.exists(
      eb
        .selectFrom('webhook_endpoints')
        .select('webhook_endpoints.id')
        .whereRef('webhook_endpoints.id', '=', 'webhook_deliveries.endpoint_id')
        .where('webhook_endpoints.status', '=', 'active'),
    ),
  ]);
}

async function claimOnPostgres(db: Kysely<Database>, request: ClaimRequest): Promise<string[]> {
  const now = request.now.toISOString();
  const leaseExpiresAt = new Date(request.now.getTime() + request.leaseMs).toISOString();
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where((eb) => due(eb, now))
      .orderBy('next_attempt_at')
      .limit(request.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    await trx
      .updateTable('webhook_deliveries')
      .set({ locked_by: request.workerId, lease_expires_at: leaseExpiresAt })
      .where('id', 'in', ids)
      .execute();
    return ids;
  });
}

async function claimOnSqlite(db: Kysely<Database>, request: ClaimRequest): Promise<string[]> {
  const now = request.now.toISOString();
  const leaseExpiresAt = new Date(request.now.getTime() + request.leaseMs).toISOString();
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ locked_by: request.workerId, lease_expires_at: leaseExpiresAt })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('webhook_deliveries.id')
        .where((inner) => due(inner, now))
        .orderBy('webhook_deliveries.next_attempt_at')
        .limit(request.limit),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Leases up to `limit` due deliveries to `workerId`; returns their ids. */
export function claimDueDeliveries(store: VigiaStore, request: ClaimRequest): Promise<string[]> {
  return store.dialect === 'postgres' ? claimOnPostgres(store.db, request) : claimOnSqlite(store.db, request);
}

import type { ExpressionBuilder } from 'kysely';
import { claimRows } from '../db/claim.js';
import type { Database, VigiaStore } from '../db/database.js';

/**
 * Taking due deliveries with a lease: `locked_by` names the worker, `lease_expires_at` says until when. A
 * delivery whose lease has expired (its worker crashed or was killed mid-delivery) is due again, so every
 * delivery is attempted at least once more after a crash. Two workers never hold the same delivery at once:
 * db/claim.ts hands each claimed row to one claimer only, on both dialects.
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

/** Leases up to `limit` due deliveries to `workerId`; returns their ids. */
export function claimDueDeliveries(store: VigiaStore, request: ClaimRequest): Promise<string[]> {
  const now = request.now.toISOString();
  const leaseExpiresAt = new Date(request.now.getTime() + request.leaseMs).toISOString();
  return claimRows(store, {
    table: 'webhook_deliveries',
    where: (eb) => due(eb, now),
    orderBy: 'next_attempt_at',
    limit: request.limit,
    set: { locked_by: request.workerId, lease_expires_at: leaseExpiresAt },
  });
}

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { startHourlyJob } from '../http/hourly-job.js';
import { DEFAULT_POLICY } from './policy.js';

/**
 * Deletes the graph's rows older than its window (`RiskPolicy.graph.windowMinutes`): no rule reads them, and a
 * graph kept no longer than it is used holds less to leak. Served by the `created_at` index (migration 0047).
 */
export async function purgeDeviceGraph(
  db: Kysely<Database>,
  now: Date,
  windowMinutes = DEFAULT_POLICY.graph.windowMinutes,
): Promise<number> {
  const cutoff = new Date(now.getTime() - windowMinutes * 60_000).toISOString();
  const result = await db.deleteFrom('device_graph').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every hour, in every instance (the DELETE is idempotent). */
export function startDeviceGraphPurge(app: FastifyInstance): void {
  startHourlyJob(app, 'device graph rows', (now) => purgeDeviceGraph(app.store.db, now));
}

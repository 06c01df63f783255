import type { FastifyInstance } from 'fastify';
import { startHourlyJob } from '../http/hourly-job.js';
import { purgeExpiredFraudSessions } from './service.js';

/** Every hour, deletes expired sessions past their retention (see `purgeExpiredFraudSessions`). */
export function startFraudSessionPurge(app: FastifyInstance): void {
  startHourlyJob(app, 'expired fraud sessions', (now) => purgeExpiredFraudSessions(app.store.db, now));
}

import type { Kysely } from 'kysely';
import { advanceAnticipations } from './anticipations/pay.js';
import type { CardAcquirer } from './charges/acquirer.js';
import { expireDueCharges } from './charges/pending.js';
import { closeExpiredReviews } from './charges/review.js';
import type { Clock } from './clock.js';
import { type JobLogger, startPeriodicJob } from './core/periodic-job.js';
import type { Database } from './db/database.js';
import { closeUnansweredDisputes } from './disputes/service.js';
import { settleDue } from './receivables/settle.js';
import type { Outbox } from './webhooks/outbox.js';
import type { BankConnector } from './withdrawals/bank-connector.js';
import { processWithdrawals } from './withdrawals/process.js';

/** How often each job looks for work: a review, a pending charge or a receivable is closed at most this late. */
export const JOB_INTERVALS_MS = {
  reviewExpiry: 60_000,
  pendingExpiry: 30_000,
  settlement: 10 * 60_000,
  disputeDeadline: 10 * 60_000,
  anticipations: 5_000,
  // Withdrawals move as the bank answers: within seconds.
  withdrawals: 2_000,
} as const;

/**
 * The jobs of the processes that run workers (the API unless VIGIA_RUN_WORKER=false, and `vigia worker`): reviews
 * whose window ended, PIX and boleto charges past their expiry, receivables due today, disputes left unanswered
 * past their evidence deadline, anticipations to approve (test mode) or pay, withdrawals sent to the bank and
 * moved as it answers. Each is safe on any number of processes at once (one conditional UPDATE decides each row).
 * Returns the stop of them all.
 */
export function startWorkerJobs(deps: {
  db: Kysely<Database>;
  acquirer: CardAcquirer;
  bank: BankConnector;
  outbox: Outbox;
  clock: Clock;
  logger: JobLogger;
  /** Shorter intervals (tests). */
  intervalsMs?: Partial<Record<keyof typeof JOB_INTERVALS_MS, number>>;
}): () => Promise<void> {
  const { db, acquirer, bank, outbox, clock, logger } = deps;
  const intervals = { ...JOB_INTERVALS_MS, ...deps.intervalsMs };
  const stops = [
    startPeriodicJob({
      name: 'closed expired reviews',
      intervalMs: intervals.reviewExpiry,
      logger,
      run: async () => {
        const { closed } = await closeExpiredReviews(db, {
          acquirer,
          outbox,
          now: clock(),
          onError: (chargeId, error) =>
            logger.warn({ err: error, chargeId }, 'review expiry failed; retrying next run'),
        });
        return closed;
      },
    }),
    startPeriodicJob({
      name: 'expired pending charges',
      intervalMs: intervals.pendingExpiry,
      logger,
      run: () => expireDueCharges(db, outbox, clock()),
    }),
    startPeriodicJob({
      name: 'receivables settled',
      intervalMs: intervals.settlement,
      logger,
      run: () => settleDue(db, { now: clock(), outbox }),
    }),
    startPeriodicJob({
      name: 'unanswered disputes lost',
      intervalMs: intervals.disputeDeadline,
      logger,
      run: () => closeUnansweredDisputes(db, { now: clock(), outbox }),
    }),
    startPeriodicJob({
      name: 'anticipations advanced',
      intervalMs: intervals.anticipations,
      logger,
      run: () => advanceAnticipations(db, { now: clock(), outbox }),
    }),
    startPeriodicJob({
      name: 'withdrawals moved',
      intervalMs: intervals.withdrawals,
      logger,
      run: () =>
        processWithdrawals(db, {
          bank,
          outbox,
          now: clock(),
          onError: (withdrawalId, error) =>
            logger.warn({ err: error, withdrawalId }, 'withdrawal bank call failed; retrying next run'),
        }),
    }),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

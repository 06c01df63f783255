import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { SecretBoxError } from '../core/secret-box.js';
import type { VigiaStore } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { claimDueDeliveries, type InFlightLimits } from './claim.js';
import {
  type AttemptOutcome,
  buildPayload,
  type ClaimedDelivery,
  loadClaimedDeliveries,
  recordAttempts,
} from './deliveries.js';
import type { Outbox } from './outbox.js';
import { endpointSecretCache } from './secrets.js';
import { type SendResult, WebhookSender } from './sender.js';
import {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signPayload,
  standardWebhookHeaders,
} from './signature.js';
import type { Resolver } from './ssrf.js';
import type { DeliveryStatus } from './table.js';
import { listenForDeliveries } from './wakeup.js';

/** The subset of a pino/Fastify logger the worker writes to. */
export interface WorkerLogger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  store: VigiaStore;
  clock: Clock;
  masterKey: Buffer;
  allowPrivateTargets: boolean;
  logger: WorkerLogger;
  /** Per attempt, whole exchange (10 s). */
  timeoutMs?: number;
  /** Deliveries in flight at once (128). */
  concurrency?: number;
  /**
   * What one endpoint, one merchant and one receiving host may hold of those at once: an eighth (16 of 128) per
   * endpoint, half per merchant and per host, so that an endpoint that never answers holds up its own slots only:
   * not its merchant's other endpoints, nor other merchants (docs/decisions/webhook-slots-per-endpoint.md).
   */
  inFlightLimits?: InFlightLimits;
  /** Wait between polls when idle (250 ms). */
  pollIntervalMs?: number;
  /** How long a claim holds a delivery; must outlast an attempt (timeout + 60 s). */
  leaseMs?: number;
  workerId?: string;
  /** Jitter source for the retry schedule. */
  random?: () => number;
  resolve?: Resolver;
  /** The app's outbox, to be woken when it queues deliveries; a worker without one (`vigia worker`) polls. */
  outbox?: Pick<Outbox, 'onWake'>;
  /**
   * How long a finished attempt's outcome may wait to be recorded with others in one commit (10 ms). Its delivery
   * stays leased meanwhile: a crash in that window leaves it to be sent again (at least once).
   */
  settleWithinMs?: number;
}

export interface WorkerStats {
  /** Attempts sent. */
  attempted: number;
  /** Outcomes recorded: attempts that succeeded, and those that failed (whether retried later or not). */
  succeeded: number;
  failed: number;
}

/** Recording an outcome again while the database is away: 250 ms, doubling to 2 s. */
const RECORD_RETRY_FIRST_MS = 250;
const RECORD_RETRY_MAX_MS = 2_000;

/** An outcome that could not be recorded (nothing was written for it). */
const UNRECORDED = 'unrecorded';

// After an in-process wake-up finds nothing (the event's transaction had not committed yet), poll this often
// for this long before falling back to the idle interval.
const EAGER_POLL_MS = 5;
const EAGER_WINDOW_MS = 250;

/**
 * Sends due webhook deliveries: claims them with a lease, POSTs each signed payload, records the attempt and
 * the next state. `start()` runs the polling loop (in the API process, or alone with `vigia worker`); tests
 * drive it step by step with `runOnce()` / `drain()` and an injected clock.
 *
 * Every write of the loop is one transaction per turn: the outcomes of the attempts that finished since the
 * last turn (each delivery's new state with its attempt row), then the claim of as many due deliveries as slots
 * are free. A durable commit (a disk flush) and the fair claim cost the same for 1 delivery as for 16, so turns are
 * few: one comes when three quarters of what was claimed have finished (half of the slots under a backlog), or
 * when a finished outcome has waited `settleWithinMs`; under a backlog many deliveries share each flush. Every
 * turn claims for all the slots free at that moment, so a freed slot waits at most `settleWithinMs` to be refilled.
 */
export class DeliveryWorker {
  readonly id: string;
  readonly stats: WorkerStats = { attempted: 0, succeeded: 0, failed: 0 };
  private readonly sender: WebhookSender;
  private readonly openSecret: ReturnType<typeof endpointSecretCache>;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  readonly inFlightLimits: InFlightLimits;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly settleWithinMs: number;
  /** Under a backlog, claim again once this many slots are free: batches amortise the claim and its commit. */
  private readonly refillAt: number;
  /** Attempts whose request is under way: each holds a slot. */
  private readonly sending = new Set<Promise<void>>();
  /** Attempts whose request is done, their outcome waiting for the next turn's commit (still leased). */
  private finished: AttemptOutcome[] = [];
  private firstFinishedAt = 0;
  private settleTimer: NodeJS.Timeout | null = null;
  private running = false;
  private loopDone: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private wake: (() => void) | null = null;
  private wokenAt = 0;
  private backlog = false;
  /** Outside a backlog, a finishing attempt wakes the loop when this few remain in flight. */
  private wakeAtInFlight = 0;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.id = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.concurrency = options.concurrency ?? 128;
    const share = Math.max(1, Math.floor(this.concurrency / 2));
    this.inFlightLimits = options.inFlightLimits ?? {
      perEndpoint: Math.max(1, Math.floor(this.concurrency / 8)),
      perMerchant: share,
      perHost: share,
    };
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.leaseMs = options.leaseMs ?? this.timeoutMs + 60_000;
    this.settleWithinMs = options.settleWithinMs ?? 10;
    this.refillAt = Math.max(1, Math.floor(this.concurrency / 2));
    this.openSecret = endpointSecretCache(options.masterKey);
    this.sender = new WebhookSender({
      timeoutMs: this.timeoutMs,
      allowPrivateTargets: options.allowPrivateTargets,
      maxSocketsPerHost: this.concurrency,
      resolve: options.resolve,
    });
  }

  /**
   * Claims what is due (up to the free concurrency), sends it all, records the outcomes; returns how many were
   * attempted.
   */
  async runOnce(): Promise<number> {
    const started = await this.turn(this.concurrency - this.sending.size);
    await Promise.all([...this.sending]);
    await this.turn(0);
    return started;
  }

  /** Runs until nothing is due at the clock's current time; returns how many attempts were made. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const attempted = await this.runOnce();
      if (attempted === 0) return total;
      total += attempted;
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const wakeUp = () => {
      this.wokenAt = Date.now();
      this.wake?.();
    };
    this.unsubscribe = this.options.outbox?.onWake(wakeUp) ?? null;
    this.stopListening = listenForDeliveries(this.options.store, wakeUp, (error) =>
      this.options.logger.warn(
        { err: error, worker: this.id },
        'webhook wake-up connection lost; polling meanwhile',
      ),
    );
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets the attempts in flight finish and records their outcome, then closes connections. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.stopListening?.();
    this.stopListening = null;
    this.wake?.();
    await this.loopDone;
    this.loopDone = null;
    await Promise.all([...this.sending]);
    await this.turn(0).catch((error) =>
      this.options.logger.error({ err: error, worker: this.id }, 'webhook worker could not record outcomes'),
    );
    this.sender.close();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.concurrency - this.sending.size;
      const busy = free <= 0 || (this.backlog && free < this.refillAt);
      if (busy && this.settleWait() > 0) {
        // Busy: wait for enough slots to free up to claim a batch (a finishing attempt wakes us), or for the
        // outcomes that finished to be due for recording.
        await this.idle(Math.min(this.pollIntervalMs, this.settleWait()));
        continue;
      }
      // A turn that records outcomes also refills the slots they freed, in the same commit: waiting for a batch
      // of free slots instead would wait on the slowest attempts in flight while others' hold the rest
      // (docs/decisions/a-worker-turn-refills-every-free-slot.md).
      const limit = Math.max(0, free);
      let claimed = 0;
      try {
        claimed = await this.turn(limit);
      } catch (error) {
        this.options.logger.error(
          { err: error, worker: this.id },
          'webhook worker could not claim deliveries',
        );
      }
      if (!this.running) break;
      if (limit === 0) continue;
      // Every free slot taken: more is probably due; claim again as soon as slots free up.
      this.backlog = claimed === limit;
      if (this.backlog) continue;
      // A claim that took some but left slots free took all it may: what else is due waits for a share to free
      // up, and a finishing attempt wakes the loop for that; polling eagerly would only repeat empty claims.
      const eager = Date.now() - this.wokenAt < EAGER_WINDOW_MS;
      await this.idle(Math.min(eager ? EAGER_POLL_MS : this.pollIntervalMs, this.settleWait()));
    }
  }

  /** How long the oldest finished outcome may still wait to be recorded; Infinity when none waits. */
  private settleWait(): number {
    if (this.finished.length === 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.firstFinishedAt + this.settleWithinMs - Date.now());
  }

  /** Resolves after `ms`, or sooner on a wake-up (new deliveries in this process, slots freed, stop()). */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /**
   * One transaction, one commit: records the outcomes finished since the last turn, then claims up to `limit`
   * due deliveries (none when 0); starts sending what it claimed and returns how many.
   */
  private async turn(limit: number): Promise<number> {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    const outcomes = this.finished.splice(0);
    if (outcomes.length === 0 && limit <= 0) return 0;
    const { db } = this.options.store;
    const now = this.options.clock();
    const claim = { workerId: this.id, now, leaseMs: this.leaseMs, limit, limits: this.inFlightLimits };
    const record = { outcomes, workerId: this.id, now, random: this.options.random };
    // A claim alone is one statement: no transaction around it.
    if (outcomes.length === 0) return this.sendClaimed(await claimDueDeliveries(db, claim));
    let ids: string[];
    try {
      const [statuses, claimed] = await db.transaction().execute(async (trx) => {
        const recorded = await recordAttempts(trx, record);
        return [recorded, limit > 0 ? await claimDueDeliveries(trx, claim) : []] as const;
      });
      this.report(outcomes, statuses);
      ids = claimed;
    } catch (error) {
      // Undone whole. Record each outcome on its own, so that one that cannot be recorded does not keep the
      // others from being recorded; then claim on its own.
      this.options.logger.warn(
        { err: error, worker: this.id },
        'webhook outcomes could not be recorded together; recording each alone',
      );
      this.report(outcomes, await Promise.all(outcomes.map((outcome) => this.recordAlone(outcome, now))));
      ids = limit > 0 ? await claimDueDeliveries(db, claim) : [];
    }
    return this.sendClaimed(ids);
  }

  private async sendClaimed(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const deliveries = await loadClaimedDeliveries(this.options.store.db, ids, this.id);
    for (const delivery of deliveries) this.startAttempt(delivery);
    this.wakeAtInFlight = Math.floor(this.sending.size / 4);
    return deliveries.length;
  }

  private async recordAlone(
    outcome: AttemptOutcome,
    now: Date,
  ): Promise<DeliveryStatus | null | typeof UNRECORDED> {
    // While the database is away (restarting, locked, its disk full) the outcome is kept and recorded once it is
    // back, for half the lease at most: otherwise the delivery would wait out its lease and be sent again.
    // docs/decisions/database-outages.md
    const giveUpAt = Date.now() + this.leaseMs / 2;
    for (let wait = RECORD_RETRY_FIRST_MS; ; wait = Math.min(RECORD_RETRY_MAX_MS, wait * 2)) {
      try {
        const [status] = await this.options.store.db
          .transaction()
          .execute((trx) =>
            recordAttempts(trx, { outcomes: [outcome], workerId: this.id, now, random: this.options.random }),
          );
        return status ?? null;
      } catch (error) {
        if (isDatabaseUnavailable(error) && this.running && Date.now() + wait < giveUpAt) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        // Nothing recorded: the lease expires and another attempt follows (at least once, never lost).
        this.options.logger.error(
          { ...this.logFields(outcome.delivery), err: error },
          'webhook attempt outcome could not be recorded',
        );
        return UNRECORDED;
      }
    }
  }

  private startAttempt(delivery: ClaimedDelivery): void {
    const task: Promise<void> = this.attempt(delivery).finally(() => {
      this.sending.delete(task);
      // Under a backlog, wake to claim a batch once enough slots are free. Otherwise the last claim may have come
      // back short because a merchant or host was at its share: claim again once three quarters of what was in
      // flight have finished (batches, not a claim per delivery). Either way, what finished is recorded within settleWithinMs.
      const free = this.concurrency - this.sending.size;
      if (this.backlog ? free >= this.refillAt : this.sending.size <= this.wakeAtInFlight) this.wake?.();
      else
        this.settleTimer ??= setTimeout(() => {
          this.settleTimer = null;
          this.wake?.();
        }, this.settleWithinMs);
    });
    this.sending.add(task);
  }

  /** Sends one delivery; its outcome waits in `finished` for the next turn. */
  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    try {
      const attemptedAt = this.options.clock();
      const result = await this.send(delivery);
      this.stats.attempted += 1;
      if (this.finished.length === 0) this.firstFinishedAt = Date.now();
      this.finished.push({ delivery, attemptedAt, result });
    } catch (error) {
      // Nothing sent or nothing to record: the lease expires and another attempt follows.
      this.options.logger.error({ ...this.logFields(delivery), err: error }, 'webhook attempt failed');
    }
  }

  private logFields(delivery: ClaimedDelivery) {
    return { worker: this.id, delivery: delivery.id, endpoint: delivery.endpointId, event: delivery.eventId };
  }

  /** Counts and logs outcomes once their recording is settled (`statuses[i]` is `outcomes[i]`'s). */
  private report(
    outcomes: AttemptOutcome[],
    statuses: readonly (DeliveryStatus | null | typeof UNRECORDED)[],
  ) {
    for (const [index, outcome] of outcomes.entries()) this.reportOne(outcome, statuses[index]!);
  }

  private reportOne(outcome: AttemptOutcome, status: DeliveryStatus | null | typeof UNRECORDED): void {
    if (status === UNRECORDED) return;
    const log = this.logFields(outcome.delivery);
    const { result } = outcome;
    const logger = this.options.logger;
    if (status === null) {
      logger.warn(log, 'webhook delivery was taken over or deleted during the attempt');
      return;
    }
    const fields = {
      ...log,
      attempt: outcome.delivery.attemptCount + 1,
      status: result.status,
      error: result.error,
    };
    if (status === 'succeeded') {
      this.stats.succeeded += 1;
      logger.debug({ ...fields, latencyMs: result.latencyMs }, 'webhook delivered');
      return;
    }
    this.stats.failed += 1;
    if (status === 'failed')
      logger.warn(fields, 'webhook delivery failed for good: retry schedule exhausted');
    else logger.info(fields, 'webhook attempt failed; retry scheduled');
  }

  private async send(delivery: ClaimedDelivery): Promise<SendResult> {
    let secret: string;
    try {
      secret = this.openSecret(delivery.secretSealed, delivery.endpointId);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      return {
        status: null,
        error:
          "The endpoint's secret could not be decrypted with the configured master key " +
          '(VIGIA_WEBHOOK_MASTER_KEY changed?); nothing was sent.',
        latencyMs: 0,
      };
    }
    const body = buildPayload(delivery);
    return this.sender.send(delivery.url, body, {
      [SIGNATURE_HEADER]: signPayload(body, secret),
      [EVENT_HEADER]: delivery.eventType,
      [EVENT_ID_HEADER]: delivery.eventId,
      ...standardWebhookHeaders(body, delivery.eventId, this.options.clock(), secret),
    });
  }
}

/** The worker's settings from the service configuration. */
export function workerOptionsFromConfig(
  config: Pick<Config, 'webhookMasterKey' | 'webhookAllowPrivateTargets' | 'webhookTimeoutMs'>,
): Pick<DeliveryWorkerOptions, 'masterKey' | 'allowPrivateTargets' | 'timeoutMs'> {
  return {
    masterKey: config.webhookMasterKey,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    timeoutMs: config.webhookTimeoutMs,
  };
}

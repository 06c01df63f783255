import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { SecretBoxError } from '../core/secret-box.js';
import type { VigiaStore } from '../db/database.js';
import { claimDueDeliveries, type InFlightLimits } from './claim.js';
import {
  buildPayload,
  type ClaimedDelivery,
  isSuccess,
  loadClaimedDeliveries,
  recordAttempt,
} from './deliveries.js';
import type { Outbox } from './outbox.js';
import { openEndpointSecret } from './secrets.js';
import { type SendResult, WebhookSender } from './sender.js';
import {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signPayload,
  standardWebhookHeaders,
} from './signature.js';
import type { Resolver } from './ssrf.js';
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
  /** Deliveries in flight at once (32). */
  concurrency?: number;
  /**
   * What one merchant, and one receiving host, may hold of those at once: half each by default (16 of 32), so
   * that endpoints that never answer hold up their merchant's (or host's) share only, not every merchant's.
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
}

export interface WorkerStats {
  attempted: number;
  succeeded: number;
  failed: number;
}

// After an in-process wake-up finds nothing (the event's transaction had not committed yet), poll this often
// for this long before falling back to the idle interval.
const EAGER_POLL_MS = 5;
const EAGER_WINDOW_MS = 250;

/**
 * Sends due webhook deliveries: claims them with a lease, POSTs each signed payload, records the attempt and
 * the next state. `start()` runs the polling loop (in the API process, or alone with `vigia worker`); tests
 * drive it step by step with `runOnce()` / `drain()` and an injected clock.
 */
export class DeliveryWorker {
  readonly id: string;
  readonly stats: WorkerStats = { attempted: 0, succeeded: 0, failed: 0 };
  private readonly sender: WebhookSender;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  readonly inFlightLimits: InFlightLimits;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  /** Under a backlog, claim again once this many slots are free: batches amortise the claim queries. */
  private readonly refillAt: number;
  private readonly inFlight = new Set<Promise<void>>();
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
    this.concurrency = options.concurrency ?? 32;
    const share = Math.max(1, Math.floor(this.concurrency / 2));
    this.inFlightLimits = options.inFlightLimits ?? { perMerchant: share, perHost: share };
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.leaseMs = options.leaseMs ?? this.timeoutMs + 60_000;
    this.refillAt = Math.max(1, Math.floor(this.concurrency / 4));
    this.sender = new WebhookSender({
      timeoutMs: this.timeoutMs,
      allowPrivateTargets: options.allowPrivateTargets,
      maxSocketsPerHost: this.concurrency,
      resolve: options.resolve,
    });
  }

  /** Claims what is due (up to the free concurrency), sends it all and waits; returns how many were attempted. */
  async runOnce(): Promise<number> {
    const started = await this.claimAndSend(this.concurrency - this.inFlight.size);
    await Promise.all([...this.inFlight]);
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

  /** Stops claiming, lets the attempts in flight finish and record their outcome, then closes connections. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.stopListening?.();
    this.stopListening = null;
    this.wake?.();
    await this.loopDone;
    this.loopDone = null;
    await Promise.all([...this.inFlight]);
    this.sender.close();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0 || (this.backlog && free < this.refillAt)) {
        // Busy: wait for enough slots to free up to claim a batch (a finishing attempt wakes us).
        await this.idle(this.pollIntervalMs);
        continue;
      }
      let claimed = 0;
      try {
        claimed = await this.claimAndSend(free);
      } catch (error) {
        this.options.logger.error(
          { err: error, worker: this.id },
          'webhook worker could not claim deliveries',
        );
      }
      if (!this.running) break;
      // Every free slot taken: more is probably due; claim again as soon as slots free up.
      this.backlog = claimed === free;
      if (this.backlog) continue;
      // A claim that took some but left slots free took all it may: what else is due waits for a share to free
      // up, and a finishing attempt wakes the loop for that; polling eagerly would only repeat empty claims.
      const eager = Date.now() - this.wokenAt < EAGER_WINDOW_MS;
      await this.idle(eager ? EAGER_POLL_MS : this.pollIntervalMs);
    }
  }

  /** Resolves after `ms`, or sooner on a wake-up (new deliveries in this process, a slot freed, stop()). */
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

  private async claimAndSend(limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const ids = await claimDueDeliveries(this.options.store, {
      workerId: this.id,
      now: this.options.clock(),
      leaseMs: this.leaseMs,
      limit,
      limits: this.inFlightLimits,
    });
    if (ids.length === 0) return 0;
    const deliveries = await loadClaimedDeliveries(this.options.store.db, ids, this.id);
    for (const delivery of deliveries) {
      const task: Promise<void> = this.attempt(delivery).finally(() => {
        this.inFlight.delete(task);
        // Under a backlog, wake to claim a batch once enough slots are free. Otherwise the last claim may have come
        // back short because a merchant or host was at its share: claim again once half of what was in flight has
        // finished (batches, not a claim per delivery).
        const free = this.concurrency - this.inFlight.size;
        if (this.backlog ? free >= this.refillAt : this.inFlight.size <= this.wakeAtInFlight) this.wake?.();
      });
      this.inFlight.add(task);
    }
    this.wakeAtInFlight = Math.floor(this.inFlight.size / 2);
    return deliveries.length;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const log = {
      worker: this.id,
      delivery: delivery.id,
      endpoint: delivery.endpointId,
      event: delivery.eventId,
    };
    try {
      const attemptedAt = this.options.clock();
      const result = await this.send(delivery);
      this.stats.attempted += 1;
      if (isSuccess(result.status)) this.stats.succeeded += 1;
      else this.stats.failed += 1;
      const status = await recordAttempt(this.options.store.db, {
        delivery,
        workerId: this.id,
        attemptedAt,
        result,
        now: this.options.clock(),
        random: this.options.random,
      });
      const outcome = {
        ...log,
        attempt: delivery.attemptCount + 1,
        status: result.status,
        error: result.error,
      };
      const logger = this.options.logger;
      if (status === null) logger.warn(log, 'webhook delivery was taken over or deleted during the attempt');
      else if (status === 'succeeded')
        logger.debug({ ...outcome, latencyMs: result.latencyMs }, 'webhook delivered');
      else if (status === 'failed')
        logger.warn(outcome, 'webhook delivery failed for good: retry schedule exhausted');
      else logger.info(outcome, 'webhook attempt failed; retry scheduled');
    } catch (error) {
      // Nothing recorded: the lease expires and another attempt follows (at least once, never lost).
      this.options.logger.error({ ...log, err: error }, 'webhook attempt outcome could not be recorded');
    }
  }

  private async send(delivery: ClaimedDelivery): Promise<SendResult> {
    let secret: string;
    try {
      secret = openEndpointSecret(delivery.secretSealed, this.options.masterKey, delivery.endpointId);
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

// One chaos phase: a cluster under steady load while faults are injected at random moments, then the checks.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Vigia } from '../../src/node/src/index.js';
import { CHARGE_EVENT_TYPES } from '../../src/server/charges/events.js';
import { chargeBody } from '../../test/helpers/charges.js';
import {
  type ChargeOutcome,
  chargeWithKey,
  type Exchange,
  ExchangeLog,
  emailOfKey,
  merchantClients,
  openCheckout,
  withKey,
} from './checkout.js';
import { type ChaosMerchant, type Cluster, startCluster } from './cluster.js';
import {
  type FaultKind,
  type FaultWindow,
  injectFault,
  mountSmallDisk,
  sendAndCut,
  unmountSmallDisk,
} from './faults.js';
import {
  checkMoney,
  emptyMoneyLoad,
  type MoneyLoad,
  type MoneyReport,
  moneyLoop,
  openMarketplace,
  randomSplit,
} from './money.js';
import { type Receiver, startReceiver } from './receivers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PhaseOptions {
  name: string;
  dialect: 'postgres' | 'sqlite';
  loadMs: number;
  /** Checkouts running at once. */
  buyers: number;
  /** Each fault kind, in the order given, at a random moment of its slot of the load. */
  faults: FaultKind[];
  /** Share of captured charges refunded. */
  refundShare: number;
  /**
   * After the load, how long to wait for the next delivery before giving up on the missing ones (a killed
   * worker's leases last 63 s). The wait goes on while deliveries arrive: a load faster than a merchant's slowest
   * receiver leaves a backlog that drains at that receiver's pace, which is a delay, not a loss.
   */
  drainMs: number;
}

/** After a fault's `cleared` moment: what counts as inside its window for the 5xx figures. */
const GRACE_MS: Record<FaultKind, number> = {
  'kill-instance': 1_000,
  'kill-worker': 0,
  'restart-postgres': 5_000,
  'freeze-postgres': 5_000,
  'fill-disk': 5_000,
  'cut-connection': 0,
};

/** However steadily deliveries arrive, the wait after the load stops here. */
const MAX_DRAIN_MS = 600_000;

/** A claimed delivery's lease: the run's 3 s webhook timeout + 60 s (webhooks/worker.ts). */
const KILLED_WORKER_LEASE_MS = 63_000;

/**
 * The black hole and the slow receiver may delay a prompt endpoint's deliveries, of their own merchant or another,
 * at most this much (p99, outside fault windows).
 */
export const BLACK_HOLE_BOUND_MS = 2_000;

export interface PhaseReport {
  name: string;
  dialect: string;
  processes: string;
  loadSeconds: number;
  notes: string[];
  charges: {
    attempted: number;
    acknowledged: number;
    unacknowledged: number;
    /** Acknowledged charges missing from the database, or not the charge of their key. */
    lost: number;
    /** Keys with more than one charge. */
    duplicated: number;
    /** Keys nobody saw acknowledged whose charge exists (its answer was lost): fine, the key replays it. */
    madeUnacknowledged: number;
    refundsAcknowledged: number;
    refundsLost: number;
    doubleRefunds: number;
  };
  sessionsConsumedTwice: number;
  tokensUsedTwice: number;
  webhooks: {
    events: number;
    /** Expected (event, endpoint) pairs, the black hole's left out. */
    expected: number;
    missing: number;
    /** The first few missing deliveries as the store has them. */
    missingDetail: string[];
    /** How long after the load the last expected delivery arrived (or the wait ended). */
    drainSeconds: number;
    duplicates: number;
    blackHoleRequests: number;
    /**
     * Event → delivery (ms, outside fault windows) at merchant 1's prompt endpoint (beside its slow and failing
     * ones; the black hole is merchant 2's) and at merchant 2's prompt endpoint (beside the black hole).
     */
    promptDelays: Record<'otherMerchant' | 'blackHoleMerchant', PromptDelay>;
  };
  money: MoneyReport;
  ledger: string;
  requests: { total: number; outsideFaults5xx: number; outsideFaults5xxRoutes: string[] };
  faults: {
    kind: FaultKind;
    detail: string;
    atSecond: number;
    requests: number;
    failedShare: number;
    /** First success of a request sent after the fault cleared, ms after it cleared. */
    recoveryMs: number | null;
  }[];
  crashes: string[];
  passed: boolean;
  failures: string[];
}

export interface PromptDelay {
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** The slowest delivery as the store has it, with its attempts. */
  slowest: string | null;
}

interface Load {
  outcomes: ChargeOutcome[];
  refunds: { chargeId: string; acknowledged: boolean }[];
  log: ExchangeLog;
  money: MoneyLoad;
}

/** Runs one phase from start to checks; every loop is bounded in time and count. */
export async function runPhase(options: PhaseOptions): Promise<PhaseReport> {
  const phaseStart = Date.now();
  const progress = (what: string) =>
    process.stderr.write(
      `chaos ${options.name} +${((Date.now() - phaseStart) / 1000).toFixed(0)} s: ${what}\n`,
    );
  const notes: string[] = [];
  const receivers = {
    prompt: await startReceiver('merchant 1, prompt', 'prompt'),
    slow: await startReceiver('merchant 1, slow', 'slow'),
    flaky: await startReceiver('merchant 1, fails 50 %', 'flaky'),
    blackhole: await startReceiver('merchant 2, black hole', 'blackhole'),
    other: await startReceiver('merchant 2, prompt', 'prompt'),
  };
  const diskDir = path.join(os.tmpdir(), `vigia-chaos-disk-${randomUUID().slice(0, 8)}`);
  let faults = options.faults;
  let cluster: Cluster | null = null;
  try {
    if (options.dialect === 'sqlite') {
      const mounted = mountSmallDisk(diskDir, 48);
      if (mounted.ok)
        notes.push('SQLite on a 48 MiB tmpfs, filled with a file of zeros until ENOSPC, then freed.');
      else {
        faults = faults.filter((kind) => kind !== 'fill-disk');
        notes.push(`Disk fill skipped: a tmpfs could not be mounted (${mounted.reason}).`);
      }
    }
    cluster = await startCluster({
      dialect: options.dialect,
      instances: options.dialect === 'postgres' ? 2 : 1,
      separateWorker: options.dialect === 'postgres',
      sqliteFile: path.join(diskDir, 'vigia.db'),
      merchants: 2,
    });
    progress('processes started');
    const [first, second] = cluster.merchants as [ChaosMerchant, ChaosMerchant];
    const urls = cluster.instances.map((instance) => instance.url);
    const log = new ExchangeLog();
    const subscribe = async (merchant: ChaosMerchant, receiver: Receiver) => {
      const [client] = merchantClients([urls[0]!], merchant, log);
      await client!.webhookEndpoints.create({ url: receiver.url, events: [...CHARGE_EVENT_TYPES] });
    };
    await subscribe(first, receivers.prompt);
    await subscribe(first, receivers.slow);
    await subscribe(first, receivers.flaky);
    await subscribe(second, receivers.blackhole);
    await subscribe(second, receivers.other);
    const sellers = await openMarketplace(merchantClients([urls[0]!], first, log)[0]!, urls[0]!, first);
    log.exchanges.length = 0;
    progress('marketplace open');

    const load: Load = { outcomes: [], refunds: [], log, money: emptyMoneyLoad() };
    const clients = new Map<ChaosMerchant, Vigia[]>([
      [first, merchantClients(urls, first, log)],
      [second, merchantClients(urls, second, log)],
    ]);
    const started = Date.now();
    const loadEnd = started + options.loadMs;
    let sequence = 0;
    const buyer = async () => {
      for (let n = 0; n < 100_000 && Date.now() < loadEnd; n++) {
        const merchant = Math.random() < 0.7 ? first : second;
        const firstInstance = Math.floor(Math.random() * urls.length);
        const order = [...urls.slice(firstInstance), ...urls.slice(0, firstInstance)];
        const checkout = await openCheckout(order, merchant, log);
        if (!checkout) continue;
        // Half of merchant 1's charges pay its sellers too, in three installments (a first one that the load's
        // settlements pay, two more left waiting for its anticipations).
        const split = merchant === first && Math.random() < 0.5 ? randomSplit(sellers) : undefined;
        if (split) load.money.splitCharges++;
        const outcome = await chargeWithKey(
          clients.get(merchant)!,
          firstInstance,
          checkout,
          (split ? 3_000 : 1_000) + ++sequence,
          undefined,
          split && { split, installments: 3 },
        );
        load.outcomes.push(outcome);
        if (outcome.status === 'captured' && Math.random() < options.refundShare) {
          load.refunds.push(await refund(clients.get(merchant)!, firstInstance, outcome.chargeId!));
        }
      }
    };

    // Each fault in a slot of its own, at a random moment in its first half; the load's last 15 % has none, so
    // the end of the run shows the system recovered.
    const windows: FaultWindow[] = [];
    const injector = async () => {
      const slotMs = (options.loadMs * 0.85) / Math.max(1, faults.length);
      for (const [index, kind] of faults.entries()) {
        const at = started + index * slotMs + Math.random() * slotMs * 0.5;
        await sleep(Math.max(0, at - Date.now()));
        progress(`fault ${kind}`);
        windows.push(
          await injectFault(kind, {
            cluster: cluster!,
            diskDir,
            cutConnection: (instance) => cutAndRetry(instance, first, clients.get(first)!, urls, load),
          }),
        );
        progress(`fault ${kind} over`);
      }
    };
    await Promise.all([
      injector(),
      moneyLoop(clients.get(first)!, urls, first, sellers, loadEnd, load.money),
      ...Array.from({ length: options.buyers }, buyer),
    ]);
    const loadSeconds = (Date.now() - started) / 1000;
    progress(`load over: ${load.outcomes.length} charges`);

    return await check(cluster, options, load, windows, receivers, loadSeconds, notes);
  } finally {
    for (const receiver of Object.values(receivers)) await receiver.close();
    await cluster?.stop();
    if (options.dialect === 'sqlite') unmountSmallDisk(diskDir);
  }
}

async function refund(clients: Vigia[], first: number, chargeId: string) {
  const outcome = await withKey(clients, first, (client, idempotencyKey) =>
    client.charges.refund(chargeId, { idempotencyKey }),
  );
  return { chargeId, acknowledged: outcome.value !== null };
}

/** The `cut-connection` fault: a charge sent and its connection dropped mid-request, then retried with its key. */
async function cutAndRetry(
  instance: { port: number | null; name: string },
  merchant: ChaosMerchant,
  clients: Vigia[],
  urls: string[],
  load: Load,
): Promise<string> {
  const checkout = await openCheckout(urls, merchant, load.log);
  if (!checkout) return 'no checkout could be opened';
  const key = randomUUID();
  const afterMs = Math.floor(Math.random() * 40);
  const body = {
    ...chargeBody(checkout.cardToken, checkout.sessionId, { amount: 999 }),
    customer: { name: 'Maria Silva', email: emailOfKey(key), document: '12345678909' },
  };
  await sendAndCut(instance as never, basic(merchant.secretKey), key, body, afterMs);
  load.outcomes.push(await chargeWithKey(clients, 0, checkout, 999, key));
  return `${instance.name}: connection dropped ${afterMs} ms after the request was sent, retried with its key`;
}

async function check(
  cluster: Cluster,
  options: PhaseOptions,
  load: Load,
  windows: FaultWindow[],
  receivers: Record<'prompt' | 'slow' | 'flaky' | 'blackhole' | 'other', Receiver>,
  loadSeconds: number,
  notes: string[],
): Promise<PhaseReport> {
  const db = cluster.store.db;
  const [first, second] = cluster.merchants as [ChaosMerchant, ChaosMerchant];
  const failures: string[] = [];
  const drainStart = Date.now();

  // Deliveries: wait (bounded) until every event reached every endpoint that can answer.
  const endpointsOf = new Map<string, Receiver[]>([
    [first.id, [receivers.prompt, receivers.slow, receivers.flaky]],
    [second.id, [receivers.other]],
  ]);
  const missingPairs = async () => {
    const events = await db
      .selectFrom('events')
      .select(['id', 'merchant_id', 'created_at'])
      .where('type', 'in', [...CHARGE_EVENT_TYPES])
      .execute();
    let missing = 0;
    let expected = 0;
    const pairs: { eventId: string; url: string }[] = [];
    for (const event of events) {
      for (const receiver of endpointsOf.get(event.merchant_id) ?? []) {
        expected++;
        if (receiver.received.has(event.id)) continue;
        missing++;
        pairs.push({ eventId: event.id, url: receiver.url });
      }
    }
    return { events, missing, expected, pairs };
  };
  const drainCap = Date.now() + MAX_DRAIN_MS;
  let deliveries = await missingPairs();
  let lastArrival = Date.now();
  while (deliveries.missing > 0 && Date.now() - lastArrival < options.drainMs && Date.now() < drainCap) {
    await sleep(1_000);
    const next = await missingPairs();
    if (next.missing < deliveries.missing) lastArrival = Date.now();
    deliveries = next;
  }
  const drainSeconds = (Date.now() - drainStart) / 1000;
  process.stderr.write(
    `chaos ${options.name}: deliveries awaited ${drainSeconds} s, ${deliveries.missing} missing\n`,
  );
  // What the store says of a delivery, with its attempts' answers: to see why it never arrived, or arrived late.
  const deliveryDetail = async ({ eventId, url }: { eventId: string; url: string }) => {
    const row = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.status',
        'd.attempt_count',
        'd.next_attempt_at',
        'd.lease_expires_at',
        'd.event_type',
        'd.created_at',
      ])
      .where('d.event_id', '=', eventId)
      .where('e.url', '=', url)
      .executeTakeFirst();
    if (!row) return `${eventId} → ${url}: no delivery row`;
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select(['attempted_at', 'response_status', 'error'])
      .where('delivery_id', '=', row.id)
      .orderBy('attempt')
      .execute();
    return `${eventId} → ${url}: ${JSON.stringify({ ...row, attempts })}`;
  };
  const missingDetail = await Promise.all(deliveries.pairs.slice(0, 5).map(deliveryDetail));
  const duplicates = [receivers.prompt, receivers.slow, receivers.flaky, receivers.other].reduce(
    (sum, receiver) => sum + [...receiver.received.values()].reduce((n, times) => n + times.length - 1, 0),
    0,
  );
  const inWindow = (at: number, done: number) =>
    windows.some((window) => at <= window.end + GRACE_MS[window.kind] && done >= window.start);
  // A killed worker's claims wait out their lease (timeout + 60 s): deliveries meanwhile are the fault's.
  const deliveryInWindow = (at: number, done: number) =>
    windows.some(
      (window) =>
        at <= window.end + (window.kind === 'kill-worker' ? KILLED_WORKER_LEASE_MS : GRACE_MS[window.kind]) &&
        done >= window.start,
    );
  // The black hole is merchant 2's, the slow receiver merchant 1's: neither merchant's prompt endpoint may wait
  // behind them (docs/decisions/webhook-slots-per-endpoint.md).
  const delays = async (merchantId: string, receiver: Receiver): Promise<PromptDelay> => {
    const latencies = deliveries.events
      .filter((event) => event.merchant_id === merchantId)
      .flatMap((event) => {
        const created = Date.parse(event.created_at);
        const received = receiver.received.get(event.id)?.[0];
        return received === undefined || deliveryInWindow(created, received)
          ? []
          : [{ eventId: event.id, ms: received - created }];
      })
      .sort((a, b) => a.ms - b.ms);
    const quantile = (q: number) =>
      latencies.length === 0
        ? null
        : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.ms;
    const slowest = latencies.at(-1);
    return {
      p50Ms: quantile(0.5),
      p99Ms: quantile(0.99),
      maxMs: slowest?.ms ?? null,
      slowest: slowest ? await deliveryDetail({ eventId: slowest.eventId, url: receiver.url }) : null,
    };
  };
  const promptDelays = {
    otherMerchant: await delays(first.id, receivers.prompt),
    blackHoleMerchant: await delays(second.id, receivers.other),
  };

  // Charges: every acknowledged one exists, as its key's only charge.
  const charges = await db
    .selectFrom('charges')
    .select(['id', 'customer_email', 'fraud_session_id', 'card_token_id', 'status'])
    .execute();
  const byEmail = new Map<string, typeof charges>();
  for (const charge of charges)
    byEmail.set(charge.customer_email, [...(byEmail.get(charge.customer_email) ?? []), charge]);
  const acknowledged = load.outcomes.filter((outcome) => outcome.chargeId !== null);
  const lost = acknowledged.filter((outcome) => {
    const made = byEmail.get(emailOfKey(outcome.key)) ?? [];
    return !made.some((charge) => charge.id === outcome.chargeId);
  }).length;
  const duplicated = [...byEmail.values()].filter((made) => made.length > 1).length;
  const madeUnacknowledged = load.outcomes.filter(
    (outcome) => outcome.chargeId === null && byEmail.has(emailOfKey(outcome.key)),
  ).length;
  const countTwice = (values: (string | null)[]) => {
    const seen = new Map<string, number>();
    for (const value of values) if (value !== null) seen.set(value, (seen.get(value) ?? 0) + 1);
    return [...seen.values()].filter((count) => count > 1).length;
  };
  const sessionsConsumedTwice = countTwice(charges.map((charge) => charge.fraud_session_id));
  const tokensUsedTwice = countTwice(charges.map((charge) => charge.card_token_id));
  const status = new Map(charges.map((charge) => [charge.id, charge.status]));
  const refundsLost = load.refunds.filter(
    (refund) => refund.acknowledged && status.get(refund.chargeId) !== 'refunded',
  ).length;
  const refundEvents = await db
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'charge.refunded')
    .execute();
  const doubleRefunds = countTwice(
    refundEvents.map((event) => (JSON.parse(event.data) as { id: string }).id),
  );

  // Requests: 5xx outside fault windows; per fault, the failed share and the recovery.
  const exchanges = load.log.exchanges;
  const failed = (exchange: Exchange) => exchange.status === 0 || exchange.status >= 500;
  const outside5xx = exchanges.filter(
    (exchange) => exchange.status >= 500 && !inWindow(exchange.at, exchange.done),
  );
  const faults = windows.map((window) => {
    const during = exchanges.filter(
      (exchange) => exchange.at <= window.end + GRACE_MS[window.kind] && exchange.done >= window.start,
    );
    const recovered = exchanges
      .filter((exchange) => exchange.at >= window.cleared && exchange.status >= 200 && exchange.status < 300)
      .map((exchange) => exchange.done - window.cleared);
    return {
      kind: window.kind,
      detail: window.detail,
      atSecond: Math.round((window.start - (exchanges[0]?.at ?? window.start)) / 1000),
      requests: during.length,
      failedShare: during.length === 0 ? 0 : during.filter(failed).length / during.length,
      recoveryMs: recovered.length === 0 ? null : Math.min(...recovered),
    };
  });

  const crashes = cluster.crashes().map((crash) => `${crash.process}: ${crash.output.slice(-1_500)}`);
  const report: PhaseReport = {
    name: options.name,
    dialect: options.dialect,
    processes:
      options.dialect === 'postgres'
        ? '2 × vigia serve + vigia worker, one PostgreSQL'
        : '1 × vigia serve (with its worker), SQLite',
    loadSeconds,
    notes,
    charges: {
      attempted: load.outcomes.length,
      acknowledged: acknowledged.length,
      unacknowledged: load.outcomes.length - acknowledged.length,
      lost,
      duplicated,
      madeUnacknowledged,
      refundsAcknowledged: load.refunds.filter((refund) => refund.acknowledged).length,
      refundsLost,
      doubleRefunds,
    },
    sessionsConsumedTwice,
    tokensUsedTwice,
    webhooks: {
      events: deliveries.events.length,
      expected: deliveries.expected,
      missing: deliveries.missing,
      missingDetail,
      drainSeconds,
      duplicates,
      blackHoleRequests: receivers.blackhole.requests,
      promptDelays,
    },
    money: await checkMoney(db, load.money),
    ledger: verifyLedger(cluster),
    requests: {
      total: exchanges.length,
      outsideFaults5xx: outside5xx.length,
      outsideFaults5xxRoutes: [
        ...new Set(outside5xx.map((exchange) => `${exchange.status} ${exchange.route}`)),
      ],
    },
    faults,
    crashes,
    passed: false,
    failures,
  };
  const expect = (ok: boolean, failure: string) => {
    if (!ok) failures.push(failure);
  };
  expect(lost === 0, `${lost} acknowledged charges lost`);
  expect(duplicated === 0, `${duplicated} keys with more than one charge`);
  expect(sessionsConsumedTwice === 0, `${sessionsConsumedTwice} fraud sessions consumed twice`);
  expect(tokensUsedTwice === 0, `${tokensUsedTwice} card tokens used twice`);
  expect(refundsLost === 0, `${refundsLost} acknowledged refunds lost`);
  expect(doubleRefunds === 0, `${doubleRefunds} charges refunded twice`);
  expect(deliveries.missing === 0, `${deliveries.missing} deliveries never arrived`);
  expect(crashes.length === 0, `${crashes.length} processes crashed`);
  expect(
    outside5xx.length === 0,
    `${outside5xx.length} 5xx answers outside fault windows; the errors the processes logged:\n${cluster
      .errors()
      .slice(-10)
      .join('\n')}`,
  );
  expect(acknowledged.length > 0, 'no charge was acknowledged');
  for (const [who, delay] of Object.entries(promptDelays)) {
    expect(
      delay.p99Ms === null || delay.p99Ms <= BLACK_HOLE_BOUND_MS,
      `${who === 'otherMerchant' ? 'merchant 1' : 'merchant 2'}'s prompt deliveries p99 ${delay.p99Ms} ms (bound ${BLACK_HOLE_BOUND_MS} ms)`,
    );
  }
  expect(report.ledger === 'passed', `ledger verify: ${report.ledger}`);
  for (const [name, figures] of [
    ['withdrawals', report.money.withdrawals],
    ['anticipations', report.money.anticipations],
  ] as const) {
    expect(figures.lost === 0, `${figures.lost} acknowledged ${name} lost`);
    expect(figures.duplicated === 0, `${figures.duplicated} ${name} keys with more than one row`);
    expect(figures.acknowledged > 0, `no ${name} acknowledged`);
  }
  expect(report.money.walletsBelowZero === 0, `${report.money.walletsBelowZero} wallets below zero`);
  report.passed = failures.length === 0;
  return report;
}

/** The ledger's own check, `vigia ledger verify` (no centavo created or lost), on the phase's database. */
function verifyLedger(cluster: Cluster): string {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'src/server/cli.ts'), 'ledger', 'verify'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, VIGIA_ENV: 'test', DATABASE_URL: cluster.databaseUrl, LOG_LEVEL: 'warn' },
    },
  );
  const output = `${result.stdout}${result.stderr}`.trim();
  if (result.status === 0) return 'passed';
  return `failed (exit ${result.status}): ${output.slice(-500)}`;
}

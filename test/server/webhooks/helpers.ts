import { spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import type { Config } from '../../../src/server/config.js';
import {
  DeliveryWorker,
  type DeliveryWorkerOptions,
  workerOptionsFromConfig,
} from '../../../src/server/webhooks/worker.js';
import {
  createTestMerchant,
  type DialectName,
  freshDatabaseUrl,
  startApp,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';

// Registered after helpers/app.ts's own afterAll, so it runs before the apps close (hooks run as a stack).
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: { id: string; type: string; created_at: string; data: unknown };
}

/** What the receiver does with the n-th request (0-based): answer with a status, or never answer. */
export type Behaviour = (request: ReceivedRequest, index: number) => number | 'hang';

/** A real HTTP receiver on 127.0.0.1, recording every request it gets. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  behaviour: Behaviour = () => 200;
  /** Delay before answering, to keep deliveries in flight (concurrency tests). */
  delayMs = 0;
  /** While true, answers wait in `held` until `release(n)` sends the n oldest (turn tests). */
  holding = false;
  private readonly held: (() => void)[] = [];
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    let receiver: Receiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver!.handle(req, res, Buffer.concat(chunks)));
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    cleanups.push(() => receiver!.close());
    return receiver;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const text = body.toString('utf8');
    let json: ReceivedRequest['json'];
    try {
      json = JSON.parse(text);
    } catch {
      json = { id: '', type: '', created_at: '', data: null };
    }
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      text,
      json,
    };
    const index = this.requests.length;
    this.requests.push(request);
    for (const waiter of this.waiters.splice(0)) waiter();
    const outcome = this.behaviour(request, index);
    if (outcome === 'hang') return;
    const answer = () => res.writeHead(outcome, { 'Content-Type': 'text/plain' }).end('ok');
    if (this.holding) this.held.push(answer);
    else if (this.delayMs > 0) setTimeout(answer, this.delayMs);
    else answer();
  }

  /** Sends the `count` oldest held answers (all of them when omitted). */
  release(count = this.held.length): void {
    for (const answer of this.held.splice(0, count)) answer();
  }

  /** Resolves once at least `count` requests have arrived. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.requests.length} requests, expected ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A request a black hole took in: which endpoint (path) and which event, read from the request head. */
export interface SwallowedRequest {
  path: string;
  eventId: string;
}

/**
 * A receiver that accepts TCP connections, reads what arrives and never answers: every delivery to it holds a
 * worker slot until the sender's timeout. `open` is how many connections it holds now.
 */
export class BlackHole {
  readonly swallowed: SwallowedRequest[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<BlackHole> {
    let hole: BlackHole | undefined;
    const server = net.createServer((socket) => hole!.swallow(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hole = new BlackHole(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    cleanups.push(() => hole!.close());
    return hole;
  }

  get open(): number {
    return this.sockets.size;
  }

  private swallow(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = head.split(' ')[1] ?? '';
      const eventId = /\r\nx-service-event-id: *([^\r]*)/i.exec(head)?.[1] ?? '';
      this.swallowed.push({ path, eventId });
    });
  }

  /** Drops every held connection (the sender sees a reset at once) and stops listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface WebhookFixture {
  app: VigiaApp;
  clock: TestClock;
  merchant: TestMerchant;
  receiver: Receiver;
  /** A delivery worker on this app's store and clock (jitter fixed at 0, so retries are due exactly on schedule). */
  worker(overrides?: Partial<DeliveryWorkerOptions>): DeliveryWorker;
  /** Registers an endpoint through the API; returns the created data (with its secret). */
  createEndpoint(
    body?: Partial<{ url: string; events: string[] }>,
    merchant?: TestMerchant,
  ): Promise<{ id: string; url: string; secret: string; events: string[]; status: string }>;
  /** Records an event as charges/onboarding would, in its own transaction; returns the event id. */
  emit(type: string, data?: unknown, merchantId?: string): Promise<string>;
  deliveries(endpointId: string, query?: string, merchant?: TestMerchant): Promise<DeliveryView[]>;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: {
    attempt: number;
    attempted_at: string;
    response_status: number | null;
    latency_ms: number;
    error: string | null;
  }[];
}

export async function webhookFixture(
  dialect: DialectName,
  options: { clock?: TestClock; config?: Partial<Config>; logStream?: { write(line: string): void } } = {},
): Promise<WebhookFixture> {
  const clock = options.clock ?? new TestClock();
  const app = await startApp(await freshDatabaseUrl(dialect), {
    clock: clock.now,
    config: options.config,
    logStream: options.logStream,
  });
  const merchant = await createTestMerchant(app);
  const receiver = await Receiver.start();

  const worker = (overrides: Partial<DeliveryWorkerOptions> = {}) => {
    const created = new DeliveryWorker({
      store: app.store,
      clock: clock.now,
      logger: app.log,
      outbox: app.outbox,
      ...workerOptionsFromConfig(app.config),
      random: () => 0.5,
      ...overrides,
    });
    cleanups.push(() => created.stop());
    return created;
  };

  const createEndpoint: WebhookFixture['createEndpoint'] = async (body = {}, owner = merchant) => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/postbacks/endpoints',
      headers: owner.secret,
      payload: { url: `${receiver.url}/hooks`, events: ['charge.captured'], ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };

  const emit: WebhookFixture['emit'] = (type, data = { id: 'obj_1' }, merchantId = merchant.id) =>
    app.store.db
      .transaction()
      .execute((trx) => app.outbox.recordEvent(trx, { merchantId, type, data, now: clock.now() }));

  const deliveries: WebhookFixture['deliveries'] = async (endpointId, query = '', owner = merchant) => {
    const response = await app.inject({
      method: 'GET',
      url: `/v1/postbacks/endpoints/${endpointId}/deliveries${query}`,
      headers: owner.secret,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  return { app, clock, merchant, receiver, worker, createEndpoint, emit, deliveries };
}

/**
 * A delivery worker in its own process (fixtures/worker-process.ts) on the app's database and key, its clock fixed
 * at `now`. Its stdout carries `started` once it runs.
 */
export function spawnWorkerProcess(app: VigiaApp, now: Date, env: Record<string, string>) {
  return spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, 'fixtures/worker-process.ts')],
    {
      env: {
        ...process.env,
        DATABASE_URL: app.config.databaseUrl,
        MASTER_KEY_HEX: app.config.webhookMasterKey.toString('hex'),
        FIXED_NOW: now.toISOString(),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
}

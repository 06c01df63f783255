// The system under faults, as an operator runs it: `vigia serve` instances and a separate `vigia worker`, each
// its own process, on one dedicated PostgreSQL (or one instance on SQLite), all on loopback. Used by `npm run
// chaos` and by the tests that restart a real PostgreSQL under a running service.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import pg from 'pg';
import {
  crashPostgres,
  freezePostgres,
  type PostgresHandle,
  restartPostgres,
  startPostgres,
  stopPostgres,
} from '../../scripts/postgres-lib.mjs';
import { openStore } from '../../src/server/db/connect.js';
import type { Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { migrations } from '../../src/server/db/migrations/index.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { updatePricing } from '../../src/server/pricing/service.js';
import { freePort, waitForPort } from '../../test/helpers/ports.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'src/server/cli.ts');
/** How much of a process's output is kept (its end), to show why it died. */
const LOG_TAIL = 16_000;
/** How long a process may take to listen: `node --import tsx` loads the whole service from source, which took
 * more than 120 s for three processes at once on a 2-core host at load average 17. */
const START_DEADLINE_MS = 300_000;

export interface ChaosMerchant {
  id: string;
  secretKey: string;
  publicKey: string;
}

/** One `vigia serve` or `vigia worker` process, started again after a fault as a supervisor would. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';
  /** Every error the process logged (the tail above drops them under a busy info log): why a 5xx happened. */
  readonly errors: string[] = [];
  private expectingExit = false;
  /** Exits nobody asked for (a crash): the fault this harness exists to find. */
  readonly crashes: { at: number; code: number | null; signal: string | null; output: string }[] = [];

  constructor(
    readonly name: string,
    private readonly command: 'serve' | 'worker',
    private readonly env: Record<string, string>,
    readonly port: number | null,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The end of what the process printed (errors included). */
  get log(): string {
    return this.output;
  }

  async start(deadlineMs = START_DEADLINE_MS): Promise<void> {
    // node itself, not the tsx launcher: a launcher killed with SIGKILL would leave its node child running.
    const child = spawn(process.execPath, ['--import', 'tsx', cli, this.command], {
      cwd: repoRoot,
      env: { ...process.env, ...this.env, ...(this.port !== null && { PORT: String(this.port) }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.expectingExit = false;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.output = (this.output + text).slice(-LOG_TAIL);
      for (const line of text.split('\n')) {
        if (/\b(ERROR|FATAL)\b|"level":(50|60)/.test(line)) this.errors.push(line.slice(0, 2_000));
      }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => {
      if (!this.expectingExit) this.crashes.push({ at: Date.now(), code, signal, output: this.output });
    });
    if (this.port !== null) {
      await Promise.race([
        waitForPort(this.port, deadlineMs),
        once(child, 'exit').then(() => {
          throw new Error(`${this.name} exited while starting:\n${this.output}`);
        }),
      ]);
    } else {
      await this.waitForOutput('worker started', deadlineMs);
    }
  }

  private async waitForOutput(text: string, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (!this.output.includes(text)) {
      if (!this.alive) throw new Error(`${this.name} exited while starting:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not start:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends the process with `signal` (SIGKILL: a crash we cause) and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    this.expectingExit = true;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}

export interface ClusterOptions {
  dialect: 'postgres' | 'sqlite';
  /** `vigia serve` processes (1 on SQLite: one process owns the file). */
  instances: number;
  /** A separate `vigia worker` (the instances then deliver nothing themselves). */
  separateWorker: boolean;
  /** SQLite: the database file (on the small file system whose disk the run fills). */
  sqliteFile?: string;
  /** Per webhook attempt (a claimed delivery's lease is this + 60 s). */
  webhookTimeoutMs?: number;
  merchants?: number;
}

export interface Cluster {
  dialect: 'postgres' | 'sqlite';
  databaseUrl: string;
  postgres: PostgresHandle | null;
  instances: ServiceProcess[];
  worker: ServiceProcess | null;
  merchants: ChaosMerchant[];
  /** A store of the harness's own, for the checks (closed by `stop`). */
  store: ReturnType<typeof openStore<Database>>;
  /** Every process crash so far (exits the harness did not cause). */
  crashes(): { process: string; at: number; code: number | null; signal: string | null; output: string }[];
  /** The error lines every process logged, named by process. */
  errors(): string[];
  stop(): Promise<void>;
}

/** Starts the database, prepares it (migrations, merchants without rate limits), then the processes. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  let postgres: PostgresHandle | null = null;
  let databaseUrl: string;
  if (options.dialect === 'postgres') {
    // Durable like production: a crash-restart must lose nothing committed.
    postgres = await startPostgres({ settings: { fsync: 'on', synchronous_commit: 'on' } });
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE vigia');
    await admin.end();
    const url = new URL(postgres.url);
    url.pathname = '/vigia';
    databaseUrl = url.toString();
  } else {
    if (!options.sqliteFile) throw new Error('a SQLite cluster needs sqliteFile');
    databaseUrl = `file:${options.sqliteFile}`;
  }

  const store = openStore<Database>(databaseUrl);
  const processes: ServiceProcess[] = [];
  try {
    await migrateToLatest(store.db, migrations);
    const merchants: ChaosMerchant[] = [];
    for (let n = 0; n < (options.merchants ?? 2); n++) {
      const now = new Date();
      const { merchant, secretKey, publicKey } = await createMerchant(store.db, {
        name: `Chaos Shop ${n + 1}`,
        live: false,
        now,
      });
      // The load is far above the default 100 charges a minute: rate limits have their own tests.
      const unlimited = 10_000_000;
      await updateMerchantSettings(
        store.db,
        merchant.id,
        { rateLimits: { transactions: unlimited, queries: unlimited, default: unlimited } },
        now,
      );
      // The load's anticipations ask for tens of reais of its sellers' few-reais installments.
      await updatePricing(store.db, merchant.id, { anticipation: { minimumAmount: 1_000 } }, now);
      merchants.push({ id: merchant.id, secretKey, publicKey });
    }
    // SQLite: one process owns the file, so the harness lets go of it before the instance opens it.
    if (options.dialect === 'sqlite') await store.close();

    const env: Record<string, string> = {
      VIGIA_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      VIGIA_CARD_HASH_KEY: randomBytes(32).toString('hex'),
      VIGIA_WEBHOOK_MASTER_KEY: randomBytes(32).toString('hex'),
      VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      VIGIA_WEBHOOK_TIMEOUT_MS: String(options.webhookTimeoutMs ?? 3_000),
      VIGIA_RUN_WORKER: options.separateWorker ? 'false' : 'true',
      // The load sends no browser's headers (Fetch Metadata, client hints): judged on them, every buyer would be
      // declined, and the run would measure declines (as the suites, test/helpers/app.ts).
      VIGIA_HEADER_EVIDENCE: 'false',
      VIGIA_DEMO_KEYS_FILE: path.join(repoRoot, '.tmp/chaos-demo-merchant.json'),
    };
    for (let n = 0; n < options.instances; n++) {
      processes.push(new ServiceProcess(`instance ${n + 1}`, 'serve', env, await freePort()));
    }
    const worker = options.separateWorker ? new ServiceProcess('worker', 'worker', env, null) : null;
    if (worker) processes.push(worker);
    await Promise.all(processes.map((child) => child.start()));

    const checks = options.dialect === 'sqlite' ? openStore<Database>(databaseUrl) : store;
    return {
      dialect: options.dialect,
      databaseUrl,
      postgres,
      instances: processes.filter((child) => child !== worker),
      worker,
      merchants,
      store: checks,
      crashes: () =>
        processes.flatMap((child) => child.crashes.map((crash) => ({ process: child.name, ...crash }))),
      errors: () => processes.flatMap((child) => child.errors.map((line) => `${child.name}: ${line}`)),
      async stop() {
        await Promise.all(processes.map((child) => child.kill('SIGTERM')));
        await checks.close().catch(() => {});
        if (postgres) {
          freezePostgres(postgres, false);
          await stopPostgres(postgres);
        }
      },
    };
  } catch (error) {
    await Promise.all(processes.map((child) => child.kill()));
    await store.close().catch(() => {});
    if (postgres) await stopPostgres(postgres);
    throw error;
  }
}

/** PostgreSQL crash-restarted: every connection cut, back after `downMs`; resolves once it accepts connections. */
export async function restartDatabase(postgres: PostgresHandle, downMs: number): Promise<void> {
  crashPostgres(postgres);
  await new Promise((resolve) => setTimeout(resolve, downMs));
  restartPostgres(postgres);
}

/** PostgreSQL frozen (SIGSTOP) for `frozenMs`, then thawed: connections stay open, nothing answers. */
export async function freezeDatabase(postgres: PostgresHandle, frozenMs: number): Promise<void> {
  freezePostgres(postgres, true);
  try {
    await new Promise((resolve) => setTimeout(resolve, frozenMs));
  } finally {
    freezePostgres(postgres, false);
  }
}

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type GroupCommitDriver, GroupCommitSqliteDialect, type GroupCommitStats } from './group-commit.js';
import { ReadConnection } from './read-connection.js';

export type Dialect = 'sqlite' | 'postgres';

/** How long to wait for a PostgreSQL connection, and for one statement. */
export const PG_CONNECTION_TIMEOUT_MS = 5_000;
export const PG_STATEMENT_TIMEOUT_MS = 15_000;

export interface Store<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The PostgreSQL pool, shared with stores that need raw access (rate-limit counters). */
  pgPool: pg.Pool | null;
  /** SQLite only: how many shared commits carried how many transactions (db/group-commit.ts). */
  groupCommit: GroupCommitStats | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// COUNT(*) and BIGINT columns come back as strings from pg; every amount and count we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** The SQL texts that PostgreSQL connections send as named prepared statements, and their names. */
const namedStatements = new Map<string, string>();

/**
 * Makes PostgreSQL parse and plan `text` once per connection instead of on every request (a named prepared
 * statement; the rest go unnamed): for the few statements hot routes send every time (`prepared`, db/prepared.ts).
 * Parsing and planning an INSERT of ~25 columns cost PostgreSQL about a third of the statement's CPU.
 */
export function nameStatement(text: string): void {
  if (!namedStatements.has(text)) namedStatements.set(text, `vigia_prepared_${namedStatements.size + 1}`);
}

/** pg's client, sending the statements `nameStatement` marked by their name (Kysely sends text and values). */
class NamingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (config object, text, callbacks) pass through.
  override query(config: any, values?: any, callback?: any): any {
    const name =
      typeof config === 'string' && Array.isArray(values) ? namedStatements.get(config) : undefined;
    return name === undefined
      ? super.query(config, values, callback)
      : super.query({ name, text: config, values }, callback);
  }
}

/** The pool behind each PostgreSQL store's own Kysely instance (a transaction's instance is not one of them). */
const pools = new WeakMap<object, pg.Pool>();

/**
 * Runs one statement on a connection of the pool behind `db`, without Kysely's executor, when `db` is a
 * PostgreSQL store's own instance; null otherwise (SQLite, or a transaction, whose statements must go through
 * its connection). For the statements hot routes send on every request (`prepared`, db/prepared.ts): the
 * executor's share of a token's INSERT is in bench/README.md ("Figures behind code comments"). The result is
 * what Kysely's driver returns.
 */
export function queryPool<Row>(
  db: object,
  text: string,
  values: unknown[],
): Promise<{ rows: Row[]; numAffectedRows?: bigint }> | null {
  const pool = pools.get(db);
  if (!pool) return null;
  return pool.query(text, values).then(({ command, rowCount, rows }) => ({
    rows: rows as Row[],
    numAffectedRows: AFFECTING.has(command) ? BigInt(rowCount ?? 0) : undefined,
  }));
}

/** The connection for shared reads of each PostgreSQL store's own instance (db/read-connection.ts). */
const readConnections = new WeakMap<object, ReadConnection>();

/**
 * Runs a read-only statement that `nameStatement` marked on the connection for shared reads of `db`
 * (db/read-connection.ts), when `db` is a PostgreSQL store's own instance; null otherwise. For the statements of
 * reads that arrive together (db/batched-read.ts).
 */
export function querySharedRead<Row>(
  db: object,
  text: string,
  values: unknown[],
): Promise<{ rows: Row[] }> | null {
  const connection = readConnections.get(db);
  const name = namedStatements.get(text);
  if (!connection || name === undefined) return null;
  return connection.query(name, text, values) as Promise<{ rows: Row[] }>;
}

const AFFECTING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** The driver behind each SQLite store's own Kysely instance (a transaction's instance is not one of them). */
const sqliteDrivers = new WeakMap<object, GroupCommitDriver>();

/**
 * Runs a read-only statement at once on the connection behind `db`, without Kysely's executor, when `db` is a
 * SQLite store's own instance and the connection is free; null otherwise (PostgreSQL, a transaction, a write,
 * the connection in use: go through Kysely). For the reads hot routes send on every request (`prepared`).
 */
export function readNow<Row>(db: object, text: string, values: unknown[]): { rows: Row[] } | null {
  return sqliteDrivers.get(db)?.readNow<Row>(text, values) ?? null;
}

/** The statement that used the connection fails with the error too: that is where it is handled. */
function ignoreLostConnection(): void {}

function openSqlite(file: string): SQLite.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // A commit answered to a merchant must survive power loss: WAL with FULL syncs the log at every commit.
  // Group commit (db/group-commit.ts) shares that cost between the transactions that arrive together.
  database.pragma('synchronous = FULL');
  // Every group-commit member runs in a savepoint (db/group-commit.ts), whose undo journal is a temporary
  // file: written through a file it cost the webhook worker CPU
  // (docs/decisions/fewer-larger-webhook-worker-turns-sqlite-temporary-files-in.md). Temporary tables,
  // indexes and sorts are kept in memory too.
  database.pragma('temp_store = MEMORY');
  // 64 MiB of page cache (SQLite's default is 2 MiB): a list search reads a busy merchant's month of index
  // entries, or its trigram candidates' rows, which the default cache evicts between two requests.
  database.pragma('cache_size = -65536');
  return database;
}

export function openStore<DB>(databaseUrl: string): Store<DB> {
  if (databaseUrl.startsWith('file:')) {
    const dialect = new GroupCommitSqliteDialect(openSqlite(databaseUrl.slice('file:'.length)));
    const db = new Kysely<DB>({ dialect });
    sqliteDrivers.set(db, dialect.driver);
    return {
      db,
      dialect: 'sqlite',
      pgPool: null,
      groupCommit: dialect.driver.stats,
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  // Bounded waits: a database that does not answer must not hold requests (and their clients) forever.
  const connection = {
    connectionString: databaseUrl,
    connectionTimeoutMillis: PG_CONNECTION_TIMEOUT_MS,
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
  };
  const pool = new pg.Pool({ Client: NamingClient, max: 10, ...connection });
  // A client losing its connection (PostgreSQL restarted, the network cut) must not crash the process. pg's pool
  // listens for an idle client's 'error' (the pool's own 'error' event, below), but not for a client checked out,
  // between two statements of a transaction, whose unexpected end is then an unhandled 'error' event: every
  // client gets a listener of its own for its whole life. The query in flight fails with the same error (answered
  // 503, http/errors.ts), the pool drops the broken client, and the next query opens a new connection.
  // docs/decisions/database-outages.md
  pool.on('connect', (client) => client.on('error', ignoreLostConnection));
  pool.on('error', ignoreLostConnection);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  const sharedReads = new ReadConnection(() => new pg.Client(connection));
  readConnections.set(db, sharedReads);
  return {
    db,
    dialect: 'postgres',
    pgPool: pool,
    groupCommit: null,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await sharedReads.close();
      await db.destroy();
    },
  };
}

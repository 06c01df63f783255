import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { BoundedCache } from '../core/bounded-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The PostgreSQL pool, shared with stores that need raw access (rate-limit counters). */
  pgPool: pg.Pool | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// COUNT(*) and BIGINT columns come back as strings from pg; every amount and count we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

function openSqlite(file: string): SQLite.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return database;
}

/**
 * Kysely prepares every query anew; compiling the SQL costs as much as running a simple query, so keep the
 * prepared statements of the most recent distinct SQL texts. Safe because Kysely runs one query at a time on
 * the connection.
 */
function withStatementCache(database: SQLite.Database, size = 500): SqliteDatabase {
  const statements = new BoundedCache<string, SQLite.Statement>(size);
  return {
    close: () => database.close(),
    prepare: (text: string) => statements.getOrSet(text, () => database.prepare(text)),
  };
}

export function openStore<DB>(databaseUrl: string): Store<DB> {
  if (databaseUrl.startsWith('file:')) {
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({
        database: withStatementCache(openSqlite(databaseUrl.slice('file:'.length))),
      }),
    });
    return {
      db,
      dialect: 'sqlite',
      pgPool: null,
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    pgPool: pool,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: () => db.destroy(),
  };
}

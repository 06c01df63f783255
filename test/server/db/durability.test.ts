import type { ServerResponse } from 'node:http';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';

import { DIALECTS, type DialectName, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { CHROME_UA, createBusyMerchant, sessionBody } from '../fraud/fixtures.js';

/**
 * A second connection to the same database sees only what was committed: what it reads the moment an answer
 * arrives is what survives the service's process dying right then.
 */
interface Observer {
  count(table: 'fraud_sessions' | 'events', column: string, values: string[]): Promise<number>;
  close(): Promise<void>;
}

async function observe(app: VigiaApp, dialect: DialectName): Promise<Observer> {
  const url = app.config.databaseUrl;
  if (dialect === 'sqlite') {
    const database = new SQLite(url.slice('file:'.length), { readonly: true });
    return {
      count: async (table, column, values) =>
        (
          database
            .prepare(
              `select count(*) as n from ${table} where ${column} in (${values.map(() => '?').join(',')})`,
            )
            .get(...values) as { n: number }
        ).n,
      close: async () => void database.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    count: async (table, column, values) =>
      Number(
        (await client.query(`select count(*) as n from ${table} where ${column} = any($1)`, [values])).rows[0]
          .n,
      ),
    close: () => client.end(),
  };
}

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let observer: Observer;
  let baseUrl: string;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, {}, (started) => createBusyMerchant(started)));
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    observer = await observe(app, dialect);
  });
  afterAll(() => observer.close());

  it('answers a created fraud session only once another connection can read it, with 40 arriving together', async () => {
    // Read at the instant the answer leaves the server (better-sqlite3 reads synchronously), not when it arrives.
    const seenAtAnswer: Promise<number>[] = [];
    const watch = (_request: unknown, response: ServerResponse) => {
      const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
      response.end = ((...args: unknown[]) => {
        const sessionId = /"sessionId":"([^"]+)"/.exec(String(args[0] ?? ''))?.[1];
        if (sessionId) seenAtAnswer.push(observer.count('fraud_sessions', 'id', [sessionId]));
        return end(...args);
      }) as typeof response.end;
    };
    app.server.prependListener('request', watch);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async () => {
          const response = await fetch(`${baseUrl}/v1/fraud/sessions`, {
            method: 'POST',
            headers: { ...merchant.public, 'user-agent': CHROME_UA, 'content-type': 'application/json' },
            body: JSON.stringify(sessionBody()),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(statuses).toEqual(Array(40).fill(201));
    } finally {
      app.server.off('request', watch);
    }
    expect(await Promise.all(seenAtAnswer)).toEqual(Array(40).fill(1));
  });

  it('keeps the work of concurrent transactions when one of them fails, and undoes only that one', async () => {
    const now = app.clock();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        app.store.db.transaction().execute(async (trx) => {
          const id = await app.outbox.recordEvent(trx, {
            merchantId: merchant.id,
            type: 'test.durability',
            data: { index },
            now,
          });
          if (index === 5) throw new Error('this request fails after writing its event');
          return id;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      Array.from({ length: 12 }, (_, index) => (index === 5 ? 'rejected' : 'fulfilled')),
    );
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(await observer.count('events', 'id', kept)).toBe(11);
    const types = await app.store.db
      .selectFrom('events')
      .select('type')
      .where('type', 'like', 'test.%')
      .execute();
    expect(types.map((row) => row.type)).toEqual(Array(11).fill('test.durability'));
  });

  // SQLite counts requests in memory; on PostgreSQL the per-request counter update must not wait for the disk.
  if (dialect === 'postgres')
    it('keeps the rate-limit counters in an unlogged table, which the service still counts in', async () => {
      const response = await app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret });
      expect(response.statusCode).toBe(200);
      const { rows } = await sql<{ persistence: string; counted: number }>`
        select c.relpersistence as persistence, (select count(*)::int from rate_limit_counters) as counted
        from pg_class c where c.relname = 'rate_limit_counters'`.execute(app.store.db);
      expect(rows).toEqual([{ persistence: 'u', counted: expect.any(Number) }]);
      expect(rows[0]!.counted).toBeGreaterThan(0);
    });

  // PostgreSQL commits each transaction on its own connection; the grouping is SQLite's.
  if (dialect === 'sqlite')
    it('lets transactions that arrive together share one commit', async () => {
      const stats = app.store.groupCommit!;
      const before = { ...stats };
      const now = app.clock();
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          app.store.db.transaction().execute((trx) =>
            app.outbox.recordEvent(trx, {
              merchantId: merchant.id,
              type: 'test.shared',
              data: { index },
              now,
            }),
          ),
        ),
      );
      expect(stats.members - before.members).toBe(20);
      expect(stats.commits - before.commits).toBeLessThan(5);
    });
});

import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { capturedCharge, marketplace, merchantWallet, walletOf } from '../../helpers/money.js';
import { recordStatements } from '../../helpers/statements.js';

// Wallet reads that arrive together share one statement (db/batched-read.ts); each still answers what was
// committed before it arrived, and only the caller's own wallets.
describe.each(DIALECTS)('%s: wallet reads that arrive together', { timeout: 120_000 }, (dialect) => {
  it('each answer is its own wallet, or 404 when the wallet is another merchant’s', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const other = await createTestMerchant(app);
    const [seller] = await marketplace(app, merchant, 1);
    await capturedCharge(app, merchant, {
      amount: 10_000,
      split: [{ submerchant_id: seller, type: 'flat', amount: 4_000 }],
    });
    await marketplace(app, other, 0);
    await capturedCharge(app, other, { amount: 3_000 });
    const mine = await walletOf(app, merchant, merchant.id);
    const sellers = await walletOf(app, merchant, seller!);
    const theirs = await walletOf(app, other, other.id);

    const read = (id: string, secret = merchant.secret) =>
      app.inject({ method: 'GET', url: `/v1/wallets/${id}`, headers: secret });
    const answers = await Promise.all([
      read(mine.id),
      read(sellers.id),
      read(theirs.id),
      read(mine.id),
      read(theirs.id, other.secret),
      read(sellers.id, other.secret),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 404, 200, 200, 404]);
    expect(answers[0]!.json().data).toEqual(mine);
    expect(answers[1]!.json().data).toEqual(sellers);
    expect(answers[3]!.json().data).toEqual(mine);
    expect(answers[4]!.json().data).toEqual(theirs);
    expect(answers[2]!.json().error.code).toBe(answers[5]!.json().error.code);
    expect(sellers.waiting_funds).toBeGreaterThan(0);
    expect(mine.waiting_funds).toBeGreaterThan(sellers.waiting_funds);
  });

  it('a read that arrives after a change is committed shows it, while other reads are still out', async () => {
    const { app, merchant, wallet } = await merchantWallet(dialect);
    const read = async () => {
      const answer = await app.inject({
        method: 'GET',
        url: `/v1/wallets/${wallet.id}`,
        headers: merchant.secret,
      });
      expect(answer.statusCode).toBe(200);
      return answer.json().data as typeof wallet;
    };
    // Eight readers keep a statement out nearly all the time, so that a read joining one already sent would show.
    let writing = true;
    const readers = Array.from({ length: 8 }, async () => {
      let reads = 0;
      while (writing) {
        await read();
        reads++;
      }
      return reads;
    });
    for (let change = 1; change <= 40; change++) {
      const committed = await app.store.db
        .updateTable('wallets')
        .set((eb) => ({ available: eb('available', '+', 1), version: eb('version', '+', 1) }))
        .where('id', '=', wallet.id)
        .returning(['version', 'available'])
        .executeTakeFirstOrThrow();
      const seen = await read();
      expect(seen.version).toBeGreaterThanOrEqual(Number(committed.version));
      expect(seen.available).toBeGreaterThanOrEqual(Number(committed.available));
    }
    writing = false;
    for (const reads of await Promise.all(readers)) expect(reads).toBeGreaterThan(0);
    expect((await read()).available).toBe(wallet.available + 40);
  });
});

describe('what wallet reads that arrive together send PostgreSQL', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('six reads of three wallets are one statement', async () => {
    const { app, merchant } = await startAppWithMerchant('postgres');
    const sellers = await marketplace(app, merchant, 2);
    await capturedCharge(app, merchant, {
      amount: 10_000,
      split: sellers.map((id) => ({ submerchant_id: id, type: 'flat', amount: 1_000 })),
    });
    const wallets = await Promise.all(
      [merchant.id, ...sellers].map((owner) => walletOf(app, merchant, owner)),
    );
    const sent = recordStatements();
    const answers = await Promise.all(
      [...wallets, ...wallets].map((wallet) =>
        app.inject({ method: 'GET', url: `/v1/wallets/${wallet.id}`, headers: merchant.secret }),
      ),
    );
    expect(answers.map((answer) => answer.json().data)).toEqual([...wallets, ...wallets]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/^select \* from "wallets"/);
  });
});

// On PostgreSQL those statements have a connection of their own (db/read-connection.ts).
describe('PostgreSQL: the connection for wallet reads', { timeout: 60_000 }, () => {
  it('answers while every pooled connection is held by a transaction', async () => {
    const { app, wallet, read } = await merchantWallet('postgres');
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pool = app.store.pgPool!;
    const held = Array.from({ length: pool.options.max }, () =>
      app.store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await released;
      }),
    );
    await expect.poll(() => pool.totalCount - pool.idleCount).toBe(pool.options.max);
    try {
      const started = Date.now();
      const answer = await read();
      expect(answer.statusCode).toBe(200);
      expect(answer.json().data).toEqual(wallet);
      // The pool would have made it wait for its connection timeout (5 s), then answered 503.
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      release();
      await Promise.all(held);
    }
  });

  it('is opened again after PostgreSQL ends it: the read it carried is a 503, the next ones are answered', async () => {
    const { app, wallet, read } = await merchantWallet('postgres');
    expect((await read()).statusCode).toBe(200);
    const readers = async () =>
      (
        await sql<{ pid: number }>`select pid from pg_stat_activity
          where datname = current_database() and query like 'select * from "wallets" where%'`.execute(
          app.store.db,
        )
      ).rows.map((row) => row.pid);
    const [reader] = await readers();
    expect(reader).toBeDefined();
    // Ended with a read on the way and one after: each is answered 200 or 503 in the error shape, never a 500.
    const [during] = await Promise.all([
      read(),
      sql`select pg_terminate_backend(${reader})`.execute(app.store.db),
    ]);
    const after = await read();
    for (const answer of [during, after]) {
      expect([200, 503]).toContain(answer.statusCode);
      if (answer.statusCode === 503) expect(answer.json().error.code).toBe('SERVICE_UNAVAILABLE');
      else expect(answer.json().data).toEqual(wallet);
    }
    await expect
      .poll(async () => {
        const answer = await read();
        return answer.statusCode === 200 && answer.json().data.id;
      })
      .toBe(wallet.id);
    expect(await readers()).not.toContain(reader);
  });

  it('is closed with the store', async () => {
    const { app, read } = await merchantWallet('postgres');
    expect((await read()).statusCode).toBe(200);
    const database = (await sql<{ name: string }>`select current_database() as name`.execute(app.store.db))
      .rows[0]!.name;
    await app.close();
    const observer = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await observer.connect();
    try {
      await expect
        .poll(async () => {
          const { rows } = await observer.query(
            'select count(*)::int as count from pg_stat_activity where datname = $1',
            [database],
          );
          return rows[0].count;
        })
        .toBe(0);
    } finally {
      await observer.end();
    }
  });
});

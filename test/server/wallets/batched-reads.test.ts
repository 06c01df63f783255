import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { capturedCharge, marketplace, walletOf } from '../../helpers/money.js';
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
    const { app, merchant } = await startAppWithMerchant(dialect);
    await marketplace(app, merchant, 0);
    await capturedCharge(app, merchant, { amount: 10_000 });
    const wallet = await walletOf(app, merchant, merchant.id);
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

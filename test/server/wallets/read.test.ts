import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { capturedCharge, merchantWallet, walletOf } from '../../helpers/money.js';
import { recordStatements } from '../../helpers/statements.js';

// GET /v1/wallets/:id reads the wallet row at once when the store is free: never a change that is not committed.
describe.each(DIALECTS)('%s: reading a wallet', { timeout: 120_000 }, (dialect) => {
  it('answers the committed balances, never those of a transaction still open or rolled back', async () => {
    const { app, wallet: before, read } = await merchantWallet(dialect);

    let during: Awaited<ReturnType<typeof read>> | undefined;
    await app.store.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('wallets')
          .set((eb) => ({ available: eb('available', '+', 1_000_000), version: eb('version', '+', 1) }))
          .where('id', '=', before.id)
          .execute();
        // A read while the change is not committed (on SQLite it waits for the connection).
        const pending = read();
        await new Promise((resolve) => setTimeout(resolve, 100));
        void pending.then((response) => {
          during = response;
        });
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(during?.statusCode).toBe(200);
    expect(during?.json().data).toEqual(before);

    const after = await read();
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual(before);
    expect(after.json().data.waiting_funds).toBeGreaterThan(0);
  });

  it('answers 404 for a wallet of another merchant or none, 400 for an id that is not one', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const other = await createTestMerchant(app);
    await capturedCharge(app, merchant, { amount: 5_000 });
    const wallet = await walletOf(app, merchant, merchant.id);
    const get = (id: string, secret = other.secret) =>
      app.inject({ method: 'GET', url: `/v1/wallets/${id}`, headers: secret });
    expect((await get(wallet.id, merchant.secret)).statusCode).toBe(200);
    expect((await get(wallet.id)).statusCode).toBe(404);
    expect((await get('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const malformed = await get('not-an-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toEqual(expect.any(String));
  });
});

// Each round trip to PostgreSQL costs a read a socket write and a wake-up of a backend: the rate limit is counted
// from the points this instance leased (db/rate-limit-counters.ts), the wallet is one prepared statement.
describe('what a wallet read sends PostgreSQL', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a wallet in one round trip, its prepared select', async () => {
    const { wallet, read } = await merchantWallet('postgres');
    expect((await read()).statusCode).toBe(200);
    const sent = recordStatements();
    expect((await read()).json().data).toEqual(wallet);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      name: expect.any(String),
      text: expect.stringMatching(/^select \* from "wallets"/),
    });
  });
});

import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { settleDue } from '../../../src/server/receivables/settle.js';
import { DIALECTS, startApp, startAppWithMerchant, TestClock } from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf, walletOf } from '../../helpers/money.js';

describe.each(DIALECTS)('%s: settlement on two instances (PostgreSQL) or two at once (SQLite)', (dialect) => {
  it('pays every due receivable exactly once when two instances settle at the same time', {
    timeout: 120_000,
  }, async () => {
    const clock = new TestClock('2026-11-21T12:00:00.000Z');
    const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now });
    const sellers = await marketplace(app, merchant, 2);
    // Instances share a PostgreSQL database; SQLite serves one process, where two settlements race in one app.
    const other = dialect === 'postgres' ? await startApp(app.config.databaseUrl, { clock: clock.now }) : app;
    const charges = [];
    for (let index = 0; index < 3; index++) {
      charges.push(
        await capturedCharge(app, merchant, {
          amount: 30_000 + index,
          installments: 6,
          split: [
            { submerchant_id: sellers[0], type: 'percentage', amount: 2000 },
            { submerchant_id: sellers[1], type: 'flat', amount: 5000 },
          ],
        }),
      );
    }
    const expected = 3 * 6 * 3;
    const waitingBefore = (await walletOf(app, merchant, merchant.id)).waiting_funds;
    const until = '2027-12-31';
    const [first, second] = await Promise.all([
      settleDue(app.store.db, { now: clock.now(), outbox: app.outbox, until }),
      settleDue(other.store.db, { now: clock.now(), outbox: other.outbox, until }),
    ]);
    expect(first + second).toBe(expected);
    for (const charge of charges) {
      for (const receivable of await receivablesOf(app, merchant, charge.id))
        expect(receivable.status).toBe('paid');
    }
    // Each receivable moved once: two postings (out of waiting funds, into available) each.
    const settlementPostings = await app.store.db
      .selectFrom('ledger_postings')
      .select('source_id')
      .where('source_type', '=', 'receivable')
      .execute();
    expect(settlementPostings).toHaveLength(2 * expected);
    const wallet = await walletOf(app, merchant, merchant.id);
    expect(wallet.waiting_funds).toBe(0);
    expect(wallet.available).toBe(waitingBefore);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});

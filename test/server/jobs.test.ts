import pino from 'pino';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../src/server/app.js';
import { startWorkerJobs } from '../../src/server/jobs.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../helpers/app.js';
import { liftRateLimits, postCharge, quickCharge, VALID_CPF } from '../helpers/charges.js';

/**
 * The worker's jobs, as `vigia worker` and the API run them: a review whose window ended is closed, a PIX past its
 * expiry is expired and a receivable due is settled, by the jobs alone (no request asks).
 */
describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  const get = async (url: string) =>
    (await app.inject({ method: 'GET', url, headers: merchant.secret })).json().data;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  test('close expired reviews, expire unpaid PIX charges and settle due receivables', async () => {
    const customer = { name: 'Ana Souza', email: 'review@risk.test', document: VALID_CPF };
    const held = (await quickCharge(app, merchant, { body: { customer } })).response.json().data;
    const captured = (await quickCharge(app, merchant, { body: { amount: 2500 } })).response.json().data;
    const pix = await postCharge(app, merchant, {
      amount: 4990,
      payment_method: 'pix',
      pix: { expires_in: 60 },
      customer: { ...customer, email: 'pix@example.com' },
    });
    expect([held.status, captured.status, pix.json().data.status]).toEqual([
      'in_review',
      'captured',
      'pending',
    ]);

    clock.advance(40 * 86_400_000); // past the review window, the PIX expiry and the first receivable's date
    const stop = startWorkerJobs({
      db: app.store.db,
      acquirer: app.acquirer,
      bank: app.bank,
      outbox: app.outbox,
      clock: clock.now,
      logger: pino({ level: 'silent' }),
      intervalsMs: { reviewExpiry: 20, pendingExpiry: 20, settlement: 20 },
    });
    try {
      // Nothing but the jobs changes these rows: poll until all three have run (bounded by the test's timeout).
      const statuses = async () => [
        (await get(`/v1/charges/${held.id}`)).status,
        (await get(`/v1/charges/${pix.json().data.id}`)).status,
        ...(await get(`/v1/receivables?charge_id=${captured.id}`)).map(
          (row: { status: string }) => row.status,
        ),
      ];
      const done = ['canceled', 'expired', 'paid'];
      while (JSON.stringify(await statuses()) !== JSON.stringify(done))
        await new Promise((r) => setTimeout(r, 50));
      expect(await statuses()).toEqual(done);
    } finally {
      await stop();
    }
  });
});

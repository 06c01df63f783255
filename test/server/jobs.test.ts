import pino from 'pino';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../src/server/app.js';
import { withCheckDigits } from '../../src/server/core/tax-id.js';
import { startWorkerJobs } from '../../src/server/jobs.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../helpers/app.js';
import { CARDS, liftRateLimits, postCharge, quickCharge, VALID_CNPJ, VALID_CPF } from '../helpers/charges.js';

/**
 * The worker's jobs, as `vigia worker` and the API run them: a review whose window ended is closed, a PIX past its
 * expiry is expired, a receivable due is settled and a dispute left unanswered is lost, by the jobs alone (no
 * request asks).
 */
describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  const get = async (url: string) =>
    (await app.inject({ method: 'GET', url, headers: merchant.secret })).json().data;
  const post = async (url: string, payload: object = {}) =>
    (await app.inject({ method: 'POST', url, headers: merchant.secret, payload })).json().data;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  test('close expired reviews, expire unpaid PIX charges, settle due receivables, lose unanswered disputes', async () => {
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
    // Two disputes: one the merchant never answers, one answered in time (the network is still reviewing it).
    // Other cards and buyers than the charges above: the same card again so soon is held for review (velocity).
    const disputed = async (amount: number, card: string, document: string) => {
      const body = { amount, customer: { name: 'Rita Lima', email: `rita${amount}@example.com`, document } };
      const charge = (await quickCharge(app, merchant, { card: { number: card }, body })).response.json()
        .data;
      expect(charge.status).toBe('captured');
      return post(`/v1/test/charges/${charge.id}/dispute`, { reason: 'not_received' });
    };
    const unanswered = await disputed(3100, CARDS.mastercard, VALID_CNPJ);
    const answered = await disputed(3200, '4242424242424242', withCheckDigits('987654321', 'cpf'));
    await post(`/v1/disputes/${answered.id}/evidence`, { text: 'Delivered, signed for by the buyer.' });

    clock.advance(40 * 86_400_000); // past the review window, the PIX expiry and the first receivable's date
    const stop = startWorkerJobs({
      db: app.store.db,
      acquirer: app.acquirer,
      bank: app.bank,
      outbox: app.outbox,
      clock: clock.now,
      logger: pino({ level: 'silent' }),
      intervalsMs: { reviewExpiry: 20, pendingExpiry: 20, settlement: 20, disputeDeadline: 20 },
    });
    try {
      // Nothing but the jobs changes these rows: poll until all three have run (bounded by the test's timeout).
      const statuses = async () => [
        (await get(`/v1/charges/${held.id}`)).status,
        (await get(`/v1/charges/${pix.json().data.id}`)).status,
        ...(await get(`/v1/receivables?charge_id=${captured.id}`)).map(
          (row: { status: string }) => row.status,
        ),
        (await get(`/v1/disputes/${unanswered.id}`)).status,
        (await get(`/v1/disputes/${answered.id}`)).status,
      ];
      const done = ['canceled', 'expired', 'paid', 'lost', 'under_review'];
      while (JSON.stringify(await statuses()) !== JSON.stringify(done))
        await new Promise((r) => setTimeout(r, 50));
      expect(await statuses()).toEqual(done);
      // The lost dispute took its amount back on the ledger, as a network's decision does.
      const taken = (await get(`/v1/receivables?charge_id=${unanswered.charge_id}`)).filter(
        (row: { type: string }) => row.type === 'chargeback',
      );
      expect(taken.reduce((sum: number, row: { amount: number }) => sum + row.amount, 0)).toBe(-3100);
    } finally {
      await stop();
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { settleDue } from '../../../src/server/receivables/settle.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startApp,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { postCharge, quickCharge, VALID_CPF } from '../../helpers/charges.js';
import { capturedCharge, marketplace, receivablesOf, walletOf } from '../../helpers/money.js';
import { type Client, client, post, submerchantBody } from '../../helpers/submerchants.js';
import { bankAccount, bankAccountBody, postWithdrawal } from '../../helpers/withdrawals.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
type Json = any;

// Monday 23 November 2026, 09:00 in São Paulo: a business day.
const TODAY = '2026-11-23';

let keys = 0;
const idempotencyKey = () => `block-test-${process.pid}-${++keys}`;

describe.each(DIALECTS)('%s: the operator blocks a submerchant', (dialect) => {
  const clock = new TestClock(`${TODAY}T12:00:00.000Z`);
  let app: VigiaApp;
  let merchant: TestMerchant;
  let operator: Client;
  let api: Client;
  /** The seller blocked and unblocked; the other seller is never blocked. */
  let seller: string;
  let other: string;
  /** The charge splitting 30 000 of 60 000 to the seller, in 3 installments. */
  let charge: Json;
  /** A PIX charge splitting to the seller, issued before the block and paid after it. */
  let held: Json;

  const sellerReceivables = async (status: string) =>
    (await api.get(`/v1/receivables?submerchant_id=${seller}&status=${status}&limit=100`)).body
      .data as Json[];
  const eventsOf = async (type: string) =>
    (
      await app.store.db
        .selectFrom('events')
        .select('type')
        .where('merchant_id', '=', merchant.id)
        .where('type', '=', type)
        .execute()
    ).length;
  const block = (id: string, body: unknown = { reason: 'Suspected fraud ring: under investigation.' }) =>
    operator.post(`/v1/operator/submerchants/${id}/block`, body);
  const unblock = (id: string) => operator.post(`/v1/operator/submerchants/${id}/unblock`);
  const limits = (id: string) =>
    api.get(`/v1/anticipations/limits?payment_date=${TODAY}&submerchant_id=${id}`);
  const anticipate = (id: string, amount: number) =>
    app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: { ...merchant.secret, 'idempotency-key': idempotencyKey() },
      payload: { timeframe: 'start', payment_date: TODAY, requested_amount: amount, submerchant_id: id },
    });
  const settle = () => settleDue(app.store.db, { now: clock.now(), outbox: app.outbox });

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    operator = client(app, await createTestOperator(app));
    api = client(app, merchant.secret);
    [seller, other] = (await marketplace(app, merchant, 2)) as [string, string];
    charge = await capturedCharge(app, merchant, {
      amount: 60_000,
      installments: 3,
      split: [{ submerchant_id: seller, type: 'flat', amount: 30_000 }],
    });
    const issued = await postCharge(app, merchant, {
      amount: 8_000,
      payment_method: 'pix',
      customer: { name: 'Joana Lima', email: 'joana@example.com', document: VALID_CPF },
      split: [{ submerchant_id: seller, type: 'flat', amount: 4_000 }],
    });
    held = issued.json().data;
    expect(held.status, issued.body).toBe('pending');
  }, 60_000);

  it('refuses bad input, unknown submerchants and non-operator keys, changing nothing', async () => {
    const bad: unknown[] = [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 42 },
      { reason: 'ok', extra: true },
    ];
    for (const body of bad) {
      const response = await block(seller, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await block('not-a-uuid')).status).toBe(400);
    expect((await block('8f0e3a52-3a57-4d7e-9d43-3c8e4a0b9f11')).body.error.code).toBe('NOT_FOUND');
    expect((await block('8f0e3a52-3a57-4d7e-9d43-3c8e4a0b9f11')).status).toBe(404);
    const asMerchant = await api.post(`/v1/operator/submerchants/${seller}/block`, { reason: 'mine' });
    expect(asMerchant.status).toBe(403);
    const anonymous = await client(app, {}).post(`/v1/operator/submerchants/${seller}/block`, {
      reason: 'anyone',
    });
    expect(anonymous.status).toBe(401);
    expect((await api.post(`/v1/operator/submerchants/${seller}/unblock`)).status).toBe(403);
    // Not blocked: unblocking is a transition not allowed now.
    const notBlocked = await unblock(seller);
    expect(notBlocked.status).toBe(409);
    expect(notBlocked.body.error.code).toBe('INVALID_STATE');

    const read = (await api.get(`/v1/submerchants/${seller}`)).body.data;
    expect(read).toMatchObject({ blocked: false, blocked_at: null, block_reason: null });
    // A submerchant still in onboarding (no wallet yet; another merchant's) can be blocked too, and keeps its status.
    const fresh = (await post(app, await createTestMerchant(app), '/v1/submerchants', submerchantBody())).id;
    const blockedFresh = await block(fresh);
    expect(blockedFresh.status).toBe(200);
    expect(blockedFresh.body.data).toMatchObject({ status: 'pending', blocked: true });
    expect((await unblock(fresh)).body.data).toMatchObject({ status: 'pending', blocked: false });
    expect(await sellerReceivables('waiting_funds')).toHaveLength(3);
    expect(await eventsOf('submerchant.blocked')).toBe(0);
  });

  it('suspends the waiting receivables into the blocked bucket, cancels open anticipations, refuses the rest', {
    timeout: 60_000,
  }, async () => {
    const waiting = await sellerReceivables('waiting_funds');
    const net = waiting.reduce((sum, receivable) => sum + receivable.net_amount, 0);
    expect((await walletOf(app, merchant, seller)).waiting_funds).toBe(net);
    // An anticipation waiting for approval reserves the first installment.
    const pending = await anticipate(seller, waiting[0]!.net_amount + 1);
    expect(pending.statusCode, pending.body).toBe(201);
    expect(pending.json().data.status).toBe('pending');

    const blocked = await block(seller);
    expect(blocked.status).toBe(200);
    expect(blocked.body.data).toMatchObject({
      id: seller,
      status: 'active',
      blocked: true,
      blocked_at: clock.now().toISOString(),
      block_reason: 'Suspected fraud ring: under investigation.',
    });
    // The merchant sees the block on its submerchant.
    expect((await api.get(`/v1/submerchants/${seller}`)).body.data).toMatchObject({
      blocked: true,
      block_reason: 'Suspected fraud ring: under investigation.',
    });

    const suspended = await sellerReceivables('suspended');
    expect(suspended).toHaveLength(3);
    expect(suspended.every((receivable) => receivable.anticipation_id === null)).toBe(true);
    expect(await sellerReceivables('waiting_funds')).toHaveLength(0);
    const wallet = await walletOf(app, merchant, seller);
    expect(wallet).toMatchObject({ waiting_funds: 0, blocked: net, available: 0 });
    const anticipation = (await api.get(`/v1/anticipations/${pending.json().data.id}`)).body.data;
    expect(anticipation.status).toBe('canceled');
    expect(await eventsOf('submerchant.blocked')).toBe(1);
    expect(await eventsOf('receivable.suspended')).toBe(3);
    expect(await eventsOf('anticipation.canceled')).toBe(1);

    // Blocking twice is 409 and changes nothing.
    clock.advance(60_000);
    const again = await block(seller, { reason: 'Another reason.' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const read = (await api.get(`/v1/submerchants/${seller}`)).body.data;
    expect(read.block_reason).toBe('Suspected fraud ring: under investigation.');
    expect(read.blocked_at).toBe(blocked.body.data.blocked_at);

    // Settlement (the job and the test route) skips the suspended receivables; the merchant's are paid.
    const settled = await api.post('/v1/test/settle', { until: '2027-12-31' });
    expect(settled.status).toBe(200);
    expect(await sellerReceivables('suspended')).toHaveLength(3);
    expect(await sellerReceivables('paid')).toHaveLength(0);
    const merchantOwn = (await receivablesOf(app, merchant, charge.id)).filter(
      (receivable) => receivable.recipient.type === 'merchant',
    );
    expect(merchantOwn.every((receivable) => receivable.status === 'paid')).toBe(true);
    expect(await walletOf(app, merchant, seller)).toMatchObject({ available: 0, blocked: net });

    // Anticipations: limits zero with the reason; a request refused with its code.
    const limit = (await limits(seller)).body.data;
    expect(limit.max.amount).toBe(0);
    expect(limit.reason).toBe('submerchant_blocked');
    const refused = await anticipate(seller, 1_000);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('ANTICIPATION_SUBMERCHANT_BLOCKED');

    // Withdrawals of its wallet are refused with their own code.
    const taxId = (await api.get(`/v1/submerchants/${seller}`)).body.data.tax_id;
    const account = await bankAccount(
      app,
      merchant,
      `/v1/submerchants/${seller}/bank-accounts`,
      bankAccountBody(taxId),
    );
    const withdrawal = await postWithdrawal(app, merchant, {
      submerchant_id: seller,
      bank_account_id: account.id,
      amount: 1_000,
    });
    expect(withdrawal.statusCode).toBe(422);
    expect(withdrawal.json().error.code).toBe('WITHDRAWAL_SUBMERCHANT_BLOCKED');

    // A new charge splitting to it is refused, and nothing is charged; the other seller still receives.
    const chargesBefore = (await api.get('/v1/charges')).body.pagination.total;
    const { response: split } = await quickCharge(app, merchant, {
      session: false,
      body: { amount: 10_000, split: [{ submerchant_id: seller, type: 'flat', amount: 1_000 }] },
    });
    expect(split.statusCode).toBe(422);
    expect(split.json().error.code).toBe('SPLIT_SUBMERCHANT_BLOCKED');
    const { response: forSeller } = await quickCharge(app, merchant, {
      session: false,
      body: { amount: 10_000, submerchant_id: seller },
    });
    expect(forSeller.statusCode).toBe(422);
    expect(forSeller.json().error.code).toBe('SUBMERCHANT_BLOCKED');
    expect((await api.get('/v1/charges')).body.pagination.total).toBe(chargesBefore);
    await capturedCharge(app, merchant, {
      amount: 10_000,
      split: [{ submerchant_id: other, type: 'flat', amount: 1_000 }],
    });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('books the share of a charge accepted before the block and captured after it suspended', async () => {
    const before = await walletOf(app, merchant, seller);
    const paid = await api.post(`/v1/test/charges/${held.id}/pay`);
    expect(paid.status).toBe(200);
    const share = (await receivablesOf(app, merchant, held.id)).filter(
      (receivable) => receivable.recipient.id === seller,
    );
    expect(share.map((receivable) => receivable.status)).toEqual(['suspended']);
    const after = await walletOf(app, merchant, seller);
    expect(after.blocked).toBe(before.blocked + share[0]!.net_amount);
    expect(after.waiting_funds).toBe(before.waiting_funds);
    const own = (await receivablesOf(app, merchant, held.id)).filter(
      (receivable) => receivable.recipient.type === 'merchant',
    );
    expect(own.map((receivable) => receivable.status)).toEqual(['waiting_funds']);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('books a refund of a suspended installment suspended too, out of the blocked bucket', async () => {
    // A charge captured before the block would be the usual case; one held in review and approved after it
    // is booked suspended at once (receivables/book.ts): both land in the blocked bucket.
    const before = await walletOf(app, merchant, seller);
    const refunded = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/refund`,
      headers: { ...merchant.secret, 'idempotency-key': idempotencyKey() },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const refunds = (await receivablesOf(app, merchant, charge.id)).filter(
      (receivable) => receivable.recipient.id === seller && receivable.type === 'refund',
    );
    expect(refunds).toHaveLength(3);
    expect(refunds.every((receivable) => receivable.status === 'suspended')).toBe(true);
    const returned = refunds.reduce((sum, receivable) => sum + receivable.net_amount, 0);
    const after = await walletOf(app, merchant, seller);
    expect(after.blocked).toBe(before.blocked + returned);
    // What is left blocked is the share of the charge captured after the block.
    const capturedLater = (await receivablesOf(app, merchant, held.id)).find(
      (receivable) => receivable.recipient.id === seller,
    )!;
    expect(after.blocked).toBe(capturedLater.net_amount);
    expect(after.available).toBe(0);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('unblocks: suspended receivables wait again and the next settlement pays those already due', {
    timeout: 60_000,
  }, async () => {
    // A fresh charge for the other seller, which is blocked now; its first installment falls due while blocked.
    const second = await capturedCharge(app, merchant, {
      amount: 40_000,
      installments: 2,
      split: [{ submerchant_id: other, type: 'flat', amount: 20_000 }],
    });
    expect((await block(other)).status).toBe(200);
    const held = (await receivablesOf(app, merchant, second.id)).filter(
      (receivable) => receivable.recipient.id === other,
    );
    expect(held.map((receivable) => receivable.status)).toEqual(['suspended', 'suspended']);
    const firstDue = held.find((receivable) => receivable.installment === 1)!;
    clock.set(`${firstDue.payment_date}T15:00:00.000Z`);
    await settle();
    expect(
      (await receivablesOf(app, merchant, second.id)).find((receivable) => receivable.id === firstDue.id)!
        .status,
    ).toBe('suspended');
    const blockedWallet = await walletOf(app, merchant, other);

    const unblocked = await unblock(other);
    expect(unblocked.status).toBe(200);
    expect(unblocked.body.data).toMatchObject({ blocked: false, blocked_at: null, block_reason: null });
    const back = (await receivablesOf(app, merchant, second.id)).filter(
      (receivable) => receivable.recipient.id === other,
    );
    expect(back.map((receivable) => receivable.status)).toEqual(['waiting_funds', 'waiting_funds']);
    expect(back.map((receivable) => receivable.payment_date)).toEqual(held.map((r) => r.payment_date));
    const waitingWallet = await walletOf(app, merchant, other);
    expect(waitingWallet.blocked).toBe(0);
    expect(waitingWallet.waiting_funds).toBe(blockedWallet.waiting_funds + blockedWallet.blocked);
    expect(await eventsOf('submerchant.unblocked')).toBe(1);
    // These two and the share of the charge the previous test made for this seller.
    expect(await eventsOf('receivable.unsuspended')).toBe(3);
    expect((await unblock(other)).status).toBe(409);

    await settle();
    const after = (await receivablesOf(app, merchant, second.id)).filter(
      (receivable) => receivable.recipient.id === other,
    );
    expect(after.find((receivable) => receivable.installment === 1)!.status).toBe('paid');
    expect(after.find((receivable) => receivable.installment === 2)!.status).toBe('waiting_funds');
    expect((await walletOf(app, merchant, other)).available).toBeGreaterThanOrEqual(firstDue.net_amount);
    // Withdrawals and new shares are allowed again.
    await capturedCharge(app, merchant, {
      amount: 10_000,
      split: [{ submerchant_id: other, type: 'flat', amount: 1_000 }],
    });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});

describe.each(DIALECTS)('%s: a block racing a settlement', (dialect) => {
  it('each receivable is either paid or suspended, once, and the ledger agrees', {
    timeout: 120_000,
  }, async () => {
    const clock = new TestClock(`${TODAY}T12:00:00.000Z`);
    const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now });
    const operator = client(app, await createTestOperator(app));
    const [seller] = (await marketplace(app, merchant, 1)) as [string];
    for (let index = 0; index < 4; index++) {
      await capturedCharge(app, merchant, {
        amount: 20_000 + index,
        installments: 6,
        split: [{ submerchant_id: seller, type: 'percentage', amount: 5000 }],
      });
    }
    // Instances share a PostgreSQL database; SQLite serves one process, where both race in one app.
    const other = dialect === 'postgres' ? await startApp(app.config.databaseUrl, { clock: clock.now }) : app;
    const [settled, blocked] = await Promise.all([
      settleDue(other.store.db, { now: clock.now(), outbox: other.outbox, until: '2027-03-31' }),
      operator.post(`/v1/operator/submerchants/${seller}/block`, { reason: 'Race.' }),
    ]);
    expect(blocked.status).toBe(200);
    expect(settled).toBeGreaterThan(0);
    const rows = await app.store.db
      .selectFrom('receivables')
      .select(['status', 'net_amount', 'payment_date'])
      .where('recipient_id', '=', seller)
      .execute();
    expect(rows).toHaveLength(24);
    for (const row of rows) {
      expect(['paid', 'suspended']).toContain(row.status);
      if (row.payment_date > '2027-03-31') expect(row.status).toBe('suspended');
    }
    const suspendedNet = rows
      .filter((row) => row.status === 'suspended')
      .reduce((sum, row) => sum + Number(row.net_amount), 0);
    const paidNet = rows
      .filter((row) => row.status === 'paid')
      .reduce((sum, row) => sum + Number(row.net_amount), 0);
    expect(await walletOf(app, merchant, seller)).toMatchObject({
      waiting_funds: 0,
      blocked: suspendedNet,
      available: paidNet,
    });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});

import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAnticipations } from '../../../src/server/anticipations/pay.js';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { addDays, nextBusinessDay, saoPauloDate } from '../../../src/server/receivables/calendar.js';
import { splitEvenly } from '../../../src/server/split/apportion.js';
import {
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { chargeBody, createToken, postCharge } from '../../helpers/charges.js';
import { marketplace } from '../../helpers/money.js';
import { keptCountsDrift } from '../../helpers/receivable-counts.js';
import { client, newCnpj } from '../../helpers/submerchants.js';
import {
  bankAccount,
  bankAccountBody,
  postWithdrawal,
  runWithdrawalsWorker,
} from '../../helpers/withdrawals.js';

const DAY = 24 * 60 * 60 * 1000;

type Step =
  | {
      kind: 'charge';
      amount: number;
      installments: number;
      shares: { seller: number; type: 'percentage' | 'flat'; amount: number; pays: boolean }[];
    }
  | { kind: 'refund'; pick: number }
  | { kind: 'settle'; days: number }
  | {
      kind: 'withdraw';
      /** 0: the merchant, 1–3: a seller. */
      owner: number;
      /** Per cent of the owner's available balance. */
      share: number;
      method: 'pix' | 'ted';
      /** Which of the owner's accounts: paid, closed (fails), returning (the bank sends it back). */
      account: 'paid' | 'closed' | 'returning';
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'bank'; ms: number }
  /** The operator blocks the seller, or unblocks it when it is blocked. */
  | { kind: 'block'; seller: number }
  | {
      kind: 'anticipate';
      /** 0: the merchant, 1–3: a seller. */
      owner: number;
      /** Per cent of the limits' maximum. */
      share: number;
      timeframe: 'start' | 'end';
      /** The payment date: the first business day this many days from today. */
      days: number;
    }
  | { kind: 'decide'; pick: number; decision: 'approve' | 'refuse' | 'cancel' }
  | { kind: 'pay' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      amount: fc.integer({ min: 100, max: 5_000_000 }),
      installments: fc.integer({ min: 1, max: 12 }),
      shares: fc.uniqueArray(
        fc.record({
          seller: fc.integer({ min: 0, max: 2 }),
          type: fc.constantFrom('percentage' as const, 'flat' as const),
          amount: fc.integer({ min: 1, max: 4000 }),
          pays: fc.boolean(),
        }),
        { maxLength: 3, selector: (share) => share.seller },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('settle' as const), days: fc.integer({ min: 0, max: 400 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      owner: fc.integer({ min: 0, max: 3 }),
      share: fc.integer({ min: 1, max: 100 }),
      method: fc.constantFrom('pix' as const, 'ted' as const),
      account: fc.constantFrom('paid' as const, 'closed' as const, 'returning' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('bank' as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('block' as const), seller: fc.integer({ min: 0, max: 2 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('anticipate' as const),
      owner: fc.integer({ min: 0, max: 3 }),
      share: fc.integer({ min: 1, max: 100 }),
      timeframe: fc.constantFrom('start' as const, 'end' as const),
      days: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      pick: fc.nat(),
      decision: fc.constantFrom('approve' as const, 'refuse' as const, 'cancel' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'pay' as const }) },
);

/**
 * Run first, on the fresh merchant (nothing available): a charge whose installments an anticipation reserves, then
 * refunded, the anticipation paid, everything settled. A refund part booked to wait beside the reserved
 * installments settles from `available` after the anticipation paid them out, and overdraws it
 * (docs/decisions/refunds-of-anticipated-installments.md).
 */
const ANTICIPATED_THEN_REFUNDED: Step[] = [
  { kind: 'charge', amount: 30_000, installments: 3, shares: [] },
  { kind: 'anticipate', owner: 0, share: 100, timeframe: 'start', days: 0 },
  { kind: 'refund', pick: 0 },
  { kind: 'pay' },
  { kind: 'settle', days: 400 },
];

/** The simulated bank's test account numbers (docs/withdrawals.md); `paid` is any other number. */
const TEST_ACCOUNTS = { paid: undefined, closed: '99999991', returning: '99999993' } as const;

/**
 * Random sequences of charges (splits, installments), refunds, settlements, withdrawals (made, canceled, and
 * moved by the bank to transferred, failed or returned), anticipations (limits, dry run, request, approval,
 * refusal, cancelation, payment) and blocks and unblocks of sellers; after every step the ledger's invariants
 * hold: each
 * transaction sums to zero, each wallet bucket is the sum of its postings, no available balance is below zero,
 * each installment's receivables add up to the installment (to zero once refunded), each wallet's in_transit is
 * what its pending and processing withdrawals hold, the payouts account what the transferred ones paid, and no
 * receivable is carried beyond its net by the withdrawals still outstanding; each wallet's waiting funds are its
 * waiting receivables, the limits' per-date totals are its free ones, an anticipation holds exactly its
 * receivables, and a settlement leaves nothing due behind; each wallet's blocked bucket is the net of its
 * suspended receivables, and only a blocked seller has suspended receivables, none waiting.
 */
describe.each(DIALECTS)('%s: the ledger under random sequences', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  const charges: { id: string; amount: number; installments: number; refunded: boolean }[] = [];
  /** The merchant, then each seller: its id and its three verified accounts' ids. */
  const owners: {
    id: string;
    submerchantId?: string;
    accounts: Record<keyof typeof TEST_ACCOUNTS, string>;
  }[] = [];
  const withdrawals: string[] = [];
  const blocked = new Set<string>();
  const anticipations: string[] = [];
  let operator: { authorization: string };

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    operator = await createTestOperator(app);
    sellers = await marketplace(app, merchant, 3);
    const pricing = await client(app, operator).patch(`/v1/operator/merchants/${merchant.id}/pricing`, {
      anticipation: { minimum_amount: 1_000 },
    });
    expect(pricing.status).toBe(200);
    const document = newCnpj();
    await app.inject({
      method: 'PATCH',
      url: '/v1/account',
      payload: { document },
      headers: merchant.secret,
    });
    const holders = [{ id: merchant.id, path: '/v1/account/bank-accounts', document }];
    for (const seller of sellers) {
      const read = await app.inject({
        method: 'GET',
        url: `/v1/submerchants/${seller}`,
        headers: merchant.secret,
      });
      holders.push({
        id: seller,
        path: `/v1/submerchants/${seller}/bank-accounts`,
        document: read.json().data.tax_id,
      });
    }
    for (const holder of holders) {
      const accounts = {} as Record<keyof typeof TEST_ACCOUNTS, string>;
      for (const [name, number] of Object.entries(TEST_ACCOUNTS)) {
        const body = bankAccountBody(holder.document, number ? { account: number } : {});
        accounts[name as keyof typeof TEST_ACCOUNTS] = (
          await bankAccount(app, merchant, holder.path, body)
        ).id;
      }
      owners.push({
        id: holder.id,
        ...(holder.id !== merchant.id && { submerchantId: holder.id }),
        accounts,
      });
    }
  }, 120_000);

  async function apply(action: Step): Promise<void> {
    if (action.kind === 'charge') {
      const split = action.shares.map((share) => ({
        submerchant_id: sellers[share.seller],
        type: share.type,
        amount:
          share.type === 'flat'
            ? Math.max(1, Math.floor((action.amount * share.amount) / 10_000))
            : share.amount,
        charge_processing_fee: share.pays,
      }));
      const body = chargeBody(await createToken(app, merchant), null, {
        amount: action.amount,
        installments: action.installments,
        ...(split.length > 0 && { split }),
      });
      const response = await postCharge(app, merchant, body);
      // A split whose fee its payers cannot cover is refused, with nothing booked.
      if (response.statusCode === 422) {
        expect(response.json().error.code).toMatch(/^SPLIT_/);
        return;
      }
      expect(response.statusCode).toBe(201);
      charges.push({
        id: response.json().data.id,
        amount: action.amount,
        installments: action.installments,
        refunded: false,
      });
    } else if (action.kind === 'refund') {
      const open = charges.filter((charge) => !charge.refunded);
      if (open.length === 0) return;
      const charge = open[action.pick % open.length]!;
      const response = await app.inject({
        method: 'POST',
        url: `/v1/charges/${charge.id}/refund`,
        headers: merchant.secret,
      });
      // Money settled and withdrawn since cannot be taken back from available: the refund is refused whole.
      if (response.statusCode === 422) {
        expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
        return;
      }
      expect(response.statusCode).toBe(200);
      charge.refunded = true;
    } else if (action.kind === 'withdraw') {
      const owner = owners[action.owner]!;
      const wallets = await app.inject({
        method: 'GET',
        url: '/v1/wallets?limit=100',
        headers: merchant.secret,
      });
      const available =
        wallets.json().data.find((wallet: { owner: { id: string } }) => wallet.owner.id === owner.id)
          ?.available ?? 0;
      const response = await postWithdrawal(app, merchant, {
        ...(owner.submerchantId && { submerchant_id: owner.submerchantId }),
        amount: Math.max(1, Math.floor((available * action.share) / 100)),
        bank_account_id: owner.accounts[action.account],
        method: action.method,
      });
      if (response.statusCode === 422) {
        expect(response.json().error.code).toMatch(
          /^WITHDRAWAL_(BELOW_MINIMUM|INSUFFICIENT_BALANCE|ALREADY_PENDING|SUBMERCHANT_BLOCKED)$/,
        );
        return;
      }
      expect(response.statusCode, response.body).toBe(201);
      withdrawals.push(response.json().data.id);
    } else if (action.kind === 'cancel') {
      if (withdrawals.length === 0) return;
      const id = withdrawals[action.pick % withdrawals.length]!;
      const response = await app.inject({
        method: 'POST',
        url: `/v1/withdrawals/${id}/cancel`,
        headers: merchant.secret,
      });
      expect([200, 409]).toContain(response.statusCode);
    } else if (action.kind === 'block') {
      const seller = sellers[action.seller]!;
      const unblocking = blocked.has(seller);
      const response = await app.inject({
        method: 'POST',
        url: `/v1/operator/submerchants/${seller}/${unblocking ? 'unblock' : 'block'}`,
        headers: operator,
        ...(!unblocking && { payload: { reason: 'Property test.' } }),
      });
      expect(response.statusCode, response.body).toBe(200);
      if (unblocking) blocked.delete(seller);
      else blocked.add(seller);
    } else if (action.kind === 'anticipate') {
      await anticipate(action);
    } else if (action.kind === 'decide') {
      if (anticipations.length === 0) return;
      const id = anticipations[action.pick % anticipations.length]!;
      const response =
        action.decision === 'cancel'
          ? await client(app, merchant.secret).post(`/v1/anticipations/${id}/cancel`)
          : await client(app, operator).post(
              `/v1/operator/anticipations/${id}/${action.decision}`,
              action.decision === 'refuse' ? { reason: 'Property test.' } : undefined,
            );
      expect([200, 409]).toContain(response.status);
    } else if (action.kind === 'pay') {
      // Test mode: the worker's pass approves the pending anticipations and pays the approved ones.
      await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    } else if (action.kind === 'bank') {
      clock.advance(action.ms);
      await runWithdrawalsWorker(app);
    } else {
      // Test mode settles ahead of time (the clock stays, so that the test cards do not expire).
      const until = saoPauloDate(new Date(clock.now().getTime() + action.days * DAY));
      const response = await app.inject({
        method: 'POST',
        url: '/v1/test/settle',
        headers: merchant.secret,
        payload: { until },
      });
      expect(response.statusCode, response.body).toBe(200);
      // Every free receivable due by then is paid: none is left behind by a settlement that could not be made.
      const left = await app.store.db
        .selectFrom('receivables')
        .select('id')
        .where('merchant_id', '=', merchant.id)
        .where('status', '=', 'waiting_funds')
        .where('anticipation_id', 'is', null)
        .where('payment_date', '<=', until)
        .execute();
      expect(left).toEqual([]);
    }
  }

  /**
   * Limits, a dry run and the anticipation itself: the dry run and the anticipation agree to the centavo, and a
   * request of the limits' minimum or maximum is granted and priced exactly as the limits say.
   */
  async function anticipate(action: Extract<Step, { kind: 'anticipate' }>): Promise<void> {
    const owner = owners[action.owner]!;
    const scope = {
      ...(owner.submerchantId && { submerchant_id: owner.submerchantId }),
      timeframe: action.timeframe,
      payment_date: nextBusinessDay(addDays(saoPauloDate(clock.now()), action.days)),
    };
    const limits = await client(app, merchant.secret).get(
      `/v1/anticipations/limits?${new URLSearchParams(scope).toString()}`,
    );
    expect(limits.status).toBe(200);
    const { max, reason } = limits.body.data;
    if (max.amount === 0) {
      expect(reason).toMatch(/^(no_receivables|all_anticipated|below_minimum|submerchant_blocked)$/);
      return;
    }
    // The smallest anticipation the limits promise is granted whole, at their fee.
    const { min } = limits.body.data;
    const smallest = await app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: merchant.secret,
      payload: { ...scope, requested_amount: min.amount, dry_run: true },
    });
    if (smallest.statusCode === 200) {
      expect({ amount: smallest.json().data.approved_amount, fee: smallest.json().data.fee }).toEqual(min);
    } else {
      expect(smallest.json().error.code, smallest.body).toBe('ANTICIPATION_FEE_EXCEEDS_AMOUNT');
    }
    const body = { ...scope, requested_amount: Math.floor((max.amount * action.share) / 100) };
    const dryRun = await app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: merchant.secret,
      payload: { ...body, dry_run: true },
    });
    const created = await app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: {
        ...merchant.secret,
        'idempotency-key': `property-${dialect}-${anticipations.length}-${Date.now()}`,
      },
      payload: body,
    });
    if (dryRun.statusCode === 422) {
      expect(dryRun.json().error.code).toMatch(/^ANTICIPATION_(BELOW_MINIMUM|FEE_EXCEEDS_AMOUNT)$/);
      expect(created.statusCode).toBe(422);
      expect(created.json().error.code).toBe(dryRun.json().error.code);
      return;
    }
    expect(dryRun.statusCode, dryRun.body).toBe(200);
    expect(created.statusCode, created.body).toBe(201);
    const figures = (data: Record<string, number>) => ({
      approved_amount: data.approved_amount,
      fee: data.fee,
      net_amount: data.net_amount,
      receivables_count: data.receivables_count,
    });
    expect(figures(created.json().data)).toEqual(figures(dryRun.json().data));
    if (body.requested_amount === max.amount) {
      expect({ amount: dryRun.json().data.approved_amount, fee: dryRun.json().data.fee }).toEqual(max);
    }
    anticipations.push(created.json().data.id);
  }

  async function checkInvariants(): Promise<void> {
    const db = app.store.db;
    expect(await verifyLedger(db)).toEqual([]);
    // The receivables list's kept counts (per recipient, payment day and creation day) are the real counts.
    expect(await keptCountsDrift(db)).toEqual([]);
    const total = await db
      .selectFrom('ledger_postings')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .executeTakeFirstOrThrow();
    expect(Number(total.total)).toBe(0);
    const overdrawn = await db.selectFrom('wallets').select('id').where('available', '<', 0).execute();
    expect(overdrawn).toEqual([]);
    const outstanding = await db
      .selectFrom('withdrawals')
      .select(['wallet_id', sql<number>`sum(amount + fee)`.as('total')])
      .where('status', 'in', ['pending', 'processing'])
      .groupBy('wallet_id')
      .execute();
    for (const wallet of await db.selectFrom('wallets').select(['id', 'in_transit']).execute()) {
      const held = outstanding.find((row) => row.wallet_id === wallet.id);
      expect(Number(wallet.in_transit)).toBe(Number(held?.total ?? 0));
    }
    const [paidOut, transferred] = await Promise.all([
      db
        .selectFrom('ledger_postings')
        .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
        .where('account', '=', 'payouts')
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('withdrawals')
        .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
        .where('status', '=', 'transferred')
        .executeTakeFirstOrThrow(),
    ]);
    expect(Number(paidOut.total)).toBe(Number(transferred.total));
    // Reconciliation: no receivable is carried beyond its net by the withdrawals still outstanding.
    const overCarried = await db
      .selectFrom('withdrawal_receivables as link')
      .innerJoin('withdrawals as w', 'w.id', 'link.withdrawal_id')
      .innerJoin('receivables as r', 'r.id', 'link.receivable_id')
      .select(['r.id', 'r.net_amount', sql<number>`sum(link.amount)`.as('carried')])
      .where('w.status', 'in', ['pending', 'processing', 'transferred'])
      .groupBy(['r.id', 'r.net_amount'])
      .having(sql<boolean>`sum(link.amount) > r.net_amount`)
      .execute();
    expect(overCarried).toEqual([]);
    // A block holds exactly its suspended receivables' net; nothing of a blocked seller waits, nothing else is held.
    const held = await db
      .selectFrom('receivables')
      .select(['wallet_id', 'recipient_id', 'status', sql<number>`sum(net_amount)`.as('net')])
      .where('status', 'in', ['suspended', 'waiting_funds'])
      .groupBy(['wallet_id', 'recipient_id', 'status'])
      .execute();
    for (const row of held) {
      expect(row.status === 'suspended', `${row.recipient_id} ${row.status}`).toBe(
        blocked.has(row.recipient_id),
      );
    }
    for (const wallet of await db.selectFrom('wallets').select(['id', 'blocked']).execute()) {
      const suspended = held.find((row) => row.wallet_id === wallet.id && row.status === 'suspended');
      expect(Number(wallet.blocked)).toBe(Number(suspended?.net ?? 0));
    }
    // Each wallet's waiting funds are its waiting receivables; the limits' per-date totals are its free ones.
    const waiting = await db
      .selectFrom('receivables')
      .select(['wallet_id', sql<number>`sum(net_amount)`.as('total')])
      .where('status', '=', 'waiting_funds')
      .groupBy('wallet_id')
      .execute();
    for (const wallet of await db.selectFrom('wallets').select(['id', 'waiting_funds']).execute()) {
      const held = waiting.find((row) => row.wallet_id === wallet.id);
      expect(Number(wallet.waiting_funds)).toBe(Number(held?.total ?? 0));
    }
    const free = await db
      .selectFrom('receivables')
      .select([
        'wallet_id',
        'payment_date',
        sql<number>`count(*)`.as('receivables'),
        sql<number>`sum(net_amount)`.as('net_amount'),
      ])
      .where('status', '=', 'waiting_funds')
      .where('anticipation_id', 'is', null)
      .groupBy(['wallet_id', 'payment_date'])
      .execute();
    const dates = await db.selectFrom('anticipatable_dates').selectAll().execute();
    const normalized = (
      rows: { wallet_id: string; payment_date: string; receivables: number; net_amount: number }[],
    ) =>
      rows
        .map(
          (row) =>
            `${row.wallet_id} ${row.payment_date} ${Number(row.receivables)} ${Number(row.net_amount)}`,
        )
        .sort();
    expect(normalized(dates)).toEqual(normalized(free));
    // An anticipation holds exactly its receivables while pending or approved, has them prepaid once paid, and
    // none once refused or canceled.
    for (const id of anticipations) {
      const anticipation = await db
        .selectFrom('anticipations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const taken = await db
        .selectFrom('receivables')
        .selectAll()
        .where('anticipation_id', '=', id)
        .execute();
      if (anticipation.status === 'refused' || anticipation.status === 'canceled') {
        expect(taken.filter((row) => row.status === 'waiting_funds')).toEqual([]);
        continue;
      }
      const status = anticipation.status === 'paid' ? 'prepaid' : 'waiting_funds';
      expect(taken.map((row) => row.status)).toEqual(taken.map(() => status));
      expect(taken).toHaveLength(Number(anticipation.receivables_count));
      expect(taken.reduce((sum, row) => sum + Number(row.net_amount), 0)).toBe(
        Number(anticipation.approved_amount),
      );
    }
    const sums = await db
      .selectFrom('receivables')
      .select(['charge_id', 'installment', 'type', sql<number>`sum(amount)`.as('total')])
      .where('merchant_id', '=', merchant.id)
      .groupBy(['charge_id', 'installment', 'type'])
      .execute();
    for (const charge of charges) {
      const amounts = splitEvenly(charge.amount, charge.installments);
      amounts.forEach((amount, index) => {
        const of = (type: string) =>
          Number(
            sums.find(
              (row) =>
                row.charge_id === charge.id && Number(row.installment) === index + 1 && row.type === type,
            )?.total ?? 0,
          );
        expect(of('credit')).toBe(amount);
        expect(of('credit') + of('refund')).toBe(charge.refunded ? 0 : amount);
      });
    }
  }

  it('keeps every invariant after every step', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const action of steps) {
          await apply(action);
          await checkInvariants();
        }
      }),
      { numRuns: 20, examples: [[ANTICIPATED_THEN_REFUNDED]] },
    );
  });
});

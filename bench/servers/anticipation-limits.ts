import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { addDays, nextBusinessDay, saoPauloDate } from '../../src/server/receivables/calendar.js';
import type { ReceivablesTable } from '../../src/server/receivables/table.js';
import { ensureMerchantWallet } from '../../src/server/wallets/service.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// GET /v1/anticipations/limits for a merchant whose own wallet waits for WAITING receivables (due over the next
// year, a few refunds among them), beside as many of its sellers' and a fifth as many already paid or anticipated:
// written straight into the store with multi-row INSERTs. Prints the queries to time.

const WAITING = Number(process.env.BENCH_WAITING_RECEIVABLES ?? 100_000);

let state = 20261127;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const { app, stopOnSigterm } = await startBenchApp();
const now = new Date();
const today = saoPauloDate(now);
const created = await createMerchant(app.store.db, { name: 'Bench Anticipations', live: false, now });
const merchantId = created.merchant.id;
await updateMerchantSettings(app.store.db, merchantId, { rateLimits: { transactions: 100_000_000 } }, now);
await ensureMerchantWallet(app.store.db, merchantId, now);
const wallet = await app.store.db
  .selectFrom('wallets')
  .select('id')
  .where('merchant_id', '=', merchantId)
  .executeTakeFirstOrThrow();
const seller = randomUUID();
const sellerWallet = randomUUID();

type Row = ReceivablesTable;
function row(owner: 'merchant' | 'seller', status: Row['status'], type: Row['type'] = 'credit'): Row {
  const due = nextBusinessDay(addDays(today, 1 + Math.floor(random() * 365)));
  const amount = (500 + Math.floor(random() * 20_000)) * (type === 'credit' ? 1 : -1);
  const fee = Math.trunc(amount * 0.0349);
  return {
    id: randomUUID(),
    merchant_id: merchantId,
    charge_id: randomUUID(),
    wallet_id: owner === 'merchant' ? wallet.id : sellerWallet,
    recipient_type: owner === 'merchant' ? 'merchant' : 'submerchant',
    recipient_id: owner === 'merchant' ? merchantId : seller,
    installment: 1 + Math.floor(random() * 12),
    installments: 12,
    amount,
    fee,
    net_amount: amount - fee,
    status,
    type,
    payment_date: due,
    original_payment_date: due,
    anticipation_id: status === 'prepaid' ? randomUUID() : null,
    paid_at: status === 'waiting_funds' ? null : now.toISOString(),
    created_at: now.toISOString(),
  };
}

const started = performance.now();
await app.store.db.transaction().execute(async (trx) => {
  const write = async (count: number, make: (index: number) => Row) => {
    for (let done = 0; done < count; done += 400) {
      const rows = Array.from({ length: Math.min(400, count - done) }, (_, k) => make(done + k));
      await trx.insertInto('receivables').values(rows).execute();
    }
  };
  await write(WAITING, (index) => row('merchant', 'waiting_funds', index % 50 === 0 ? 'refund' : 'credit'));
  await write(WAITING, () => row('seller', 'waiting_funds'));
  await write(WAITING / 5, (index) => row('merchant', index % 2 ? 'paid' : 'prepaid'));
});
await sql`${sql.raw(app.store.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze receivables')}`.execute(
  app.store.db,
);
const seedSeconds = (performance.now() - started) / 1000;
const base = await listenLocally(app);

const first = nextBusinessDay(today);
const later = nextBusinessDay(addDays(today, 45));
const queries = [
  { kind: 'today, nearest first', path: `/v1/anticipations/limits?payment_date=${first}&timeframe=start` },
  { kind: 'today, farthest first', path: `/v1/anticipations/limits?payment_date=${first}&timeframe=end` },
  { kind: 'in 45 days', path: `/v1/anticipations/limits?payment_date=${later}&timeframe=start` },
];
console.log(
  JSON.stringify({
    base,
    authorization: basic(created.secretKey),
    queries,
    // The same app's read of one row, timed between the limits: what any request costs on this machine now.
    reference: `/v1/wallets/${wallet.id}`,
    receivables: WAITING,
    seedSeconds,
  }),
);
stopOnSigterm();

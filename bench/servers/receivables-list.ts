import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { addDays, nextBusinessDay } from '../../src/server/receivables/calendar.js';
import type { ReceivablesTable } from '../../src/server/receivables/table.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';
import { seededRandom } from '../lib/seeded-random.js';

// GET /v1/receivables over RECEIVABLES receivables of one merchant (and a fifth as many of another), written
// straight into the store with multi-row INSERTs, oldest charge first (as a store fills): charges over a year,
// 1–12 installments, three recipients each (the merchant and two of eight sellers), statuses by due date. The
// kept counts (migration 0069) are written by their triggers, as in production. Prints the queries to time.

const RECEIVABLES = Number(process.env.BENCH_RECEIVABLES ?? 1_000_000);
const DAYS = 365;

const { random, pick } = seededRandom(20261127);

const { app, stopOnSigterm } = await startBenchApp();
const now = new Date();
const today = now.toISOString().slice(0, 10);
const created = await createMerchant(app.store.db, { name: 'Bench Marketplace', live: false, now });
const other = await createMerchant(app.store.db, { name: 'Other Marketplace', live: false, now });
await updateMerchantSettings(
  app.store.db,
  created.merchant.id,
  { rateLimits: { queries: 100_000_000 } },
  now,
);
const sellers = Array.from({ length: 8 }, () => randomUUID());
const wallets = new Map<string, string>();
const walletOf = (id: string) => {
  let wallet = wallets.get(id);
  if (!wallet) {
    wallet = randomUUID();
    wallets.set(id, wallet);
  }
  return wallet;
};

type Row = ReceivablesTable;
/** A charge's creation time within the last year. */
const chargeTime = () =>
  now.getTime() - Math.floor(random() * DAYS) * 86_400_000 - Math.floor(random() * 86_400_000);

/** Enough charges for `count` receivables (three recipients each), oldest first. */
function charges(count: number) {
  const list: { at: number; installments: number }[] = [];
  for (let receivables = 0; receivables < count; ) {
    const installments = pick([1, 1, 2, 3, 6, 10, 12, 12]);
    list.push({ at: chargeTime(), installments });
    receivables += 3 * installments;
  }
  return list.sort((a, b) => a.at - b.at);
}

/** One charge's receivables: its installments for the merchant and two sellers. */
function chargeRows(merchantId: string, charge: { at: number; installments: number }): Row[] {
  const chargeId = randomUUID();
  const createdAt = new Date(charge.at).toISOString();
  const { installments } = charge;
  const recipients: [Row['recipient_type'], string][] = [
    ['merchant', merchantId],
    ['submerchant', sellers[Math.floor(random() * 4)]!],
    ['submerchant', sellers[4 + Math.floor(random() * 4)]!],
  ];
  const rows: Row[] = [];
  for (let k = 1; k <= installments; k++) {
    const due = nextBusinessDay(addDays(createdAt.slice(0, 10), 30 * k));
    for (const [type, id] of recipients) {
      const amount = 500 + Math.floor(random() * 20_000);
      const fee = Math.floor(amount * 0.0399);
      rows.push({
        id: randomUUID(),
        merchant_id: merchantId,
        charge_id: chargeId,
        wallet_id: walletOf(id),
        recipient_type: type,
        recipient_id: id,
        installment: k,
        installments,
        amount,
        fee,
        net_amount: amount - fee,
        status: due <= today ? 'paid' : 'waiting_funds',
        type: 'credit',
        payment_date: due,
        original_payment_date: due,
        anticipation_id: null,
        paid_at: due <= today ? `${due}T12:00:00.000Z` : null,
        created_at: createdAt,
      });
    }
  }
  return rows;
}

// INSERTs of 1,000 rows (18 values a row, within either store's limit on bound values), all in one transaction.
// SQLite seeds with 1 GiB of page cache, then serves with its usual cache: with 64 MiB, or a commit per INSERT,
// the pages that random ids touch in no order (the primary key's, the charge's index) were written out again and
// again (1,126 s for 1,200,000 rows).
const BATCH = 1_000;
const started = performance.now();
const sqlite = app.store.dialect === 'sqlite';
const cacheSize = sqlite
  ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(app.store.db)).rows[0]!.cache_size
  : 0;
if (sqlite) await sql`pragma cache_size = -1048576`.execute(app.store.db);
let sample: Row | undefined;
let written = 0;
/** The merchants' receivables in INSERTs of BATCH rows, oldest charge first. */
function* batches(): Generator<Row[]> {
  for (const [merchantId, count] of [
    [created.merchant.id, RECEIVABLES],
    [other.merchant.id, Math.ceil(RECEIVABLES / 5)],
  ] as const) {
    let pending: Row[] = [];
    let done = 0;
    for (const charge of charges(count)) {
      const rows = chargeRows(merchantId, charge).slice(0, count - done);
      done += rows.length;
      if (merchantId === created.merchant.id && done > count / 2 && !sample) sample = rows[0];
      pending.push(...rows);
      while (pending.length >= BATCH || (done === count && pending.length > 0)) {
        yield pending.slice(0, BATCH);
        pending = pending.slice(BATCH);
      }
    }
    written += done;
  }
}
await app.store.db.transaction().execute(async (trx) => {
  for (const batch of batches()) await trx.insertInto('receivables').values(batch).execute();
});
if (sqlite) await sql`pragma cache_size = ${sql.raw(String(cacheSize))}`.execute(app.store.db);
await sql`${sql.raw(sqlite ? 'analyze' : 'vacuum analyze')}`.execute(app.store.db);
const seedSeconds = (performance.now() - started) / 1000;
const base = await listenLocally(app);

const from = addDays(today, 10);
const to = addDays(from, 29);
const queries = [
  { kind: "a charge's receivables", path: `/v1/receivables?charge_id=${sample!.charge_id}&limit=100` },
  {
    kind: "a seller's next 30 days",
    path: `/v1/receivables?submerchant_id=${sellers[2]}&payment_date_from=${from}&payment_date_to=${to}`,
  },
  {
    kind: "one day's calendar",
    path: `/v1/receivables?payment_date_from=${from}&payment_date_to=${from}&limit=100`,
  },
  { kind: 'newest page', path: '/v1/receivables?limit=20' },
  { kind: 'waiting, newest page', path: '/v1/receivables?status=waiting_funds&limit=20' },
  { kind: 'created this week', path: `/v1/receivables?date_from=${addDays(today, -6)}&date_to=${today}` },
];
console.log(
  JSON.stringify({
    base,
    authorization: basic(created.secretKey),
    queries,
    receivables: RECEIVABLES,
    written,
    seedSeconds,
  }),
);
stopOnSigterm();

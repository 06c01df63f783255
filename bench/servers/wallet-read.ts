import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import type { WalletRow } from '../../src/server/ledger/post.js';
import { postTransaction } from '../../src/server/ledger/post.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { presentWallet } from '../../src/server/wallets/present.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// Our authenticated, rate-limited GET /v1/wallets/:id beside a bare Fastify route answering the same JSON. The
// wallet holds what a captured charge left in it (one ledger transaction).
const { app, databaseUrl, stopOnSigterm } = await startBenchApp();
const now = new Date();
const { merchant, secretKey } = await createMerchant(app.store.db, { name: 'Bench', live: false, now });
// The limiter still counts every request; the limit is only raised so that the run is not refused.
await updateMerchantSettings(app.store.db, merchant.id, { rateLimits: { queries: 100_000_000 } }, now);
const owner = { type: 'merchant' as const, id: merchant.id };
const posted = await app.store.db.transaction().execute((trx) =>
  postTransaction(trx, {
    merchantId: merchant.id,
    kind: 'charge_captured',
    source: { type: 'charge', id: merchant.id },
    postings: [
      { account: { platform: 'acquirer_settlement' }, amount: -10_000 },
      { account: { platform: 'platform_fees' }, amount: 299 },
      { account: { owner, bucket: 'waiting_funds' }, amount: 9701 },
    ],
    now,
  }),
);
const wallet = [...posted.wallets.values()][0]!;
const ours = await listenLocally(app);

const payload = { message: 'Wallet retrieved.', data: presentWallet(wallet) };
const bare = Fastify();
bare.get('/v1/wallets/:id', async () => payload);
// For information: the least a correct server must do to answer a fresh balance, one statement per request with
// its own connection or pool (no auth, no rate limit, no batching).
const readRow = rowReader(databaseUrl);
bare.get<{ Params: { id: string } }>('/read/wallets/:id', async (request) => ({
  message: 'Wallet retrieved.',
  data: presentWallet((await readRow.read(request.params.id)) as WalletRow),
}));
const bareUrl = await listenLocally(bare);

console.log(
  JSON.stringify({
    ours: `${ours}/v1/wallets/${wallet.id}`,
    bare: `${bareUrl}/v1/wallets/${wallet.id}`,
    information: `${bareUrl}/read/wallets/${wallet.id}`,
    authorization: basic(secretKey),
  }),
);
stopOnSigterm(
  () => bare.close(),
  () => readRow.close(),
);

/** One wallet row by id, read the plainest way each store allows: a prepared statement per request. */
function rowReader(url: string) {
  if (url.startsWith('file:')) {
    const database = new SQLite(url.slice('file:'.length), { readonly: true });
    const statement = database.prepare('select * from wallets where id = ?');
    return { read: async (id: string) => statement.get(id), close: () => database.close() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    read: async (id: string) =>
      (await pool.query({ name: 'wallet', text: 'select * from wallets where id = $1', values: [id] }))
        .rows[0],
    close: () => pool.end(),
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { WalletRow } from '../ledger/post.js';
import type { ReceivableEventType } from '../receivables/events.js';
import type { Outbox } from '../webhooks/outbox.js';
import { presentWallet } from './present.js';

/**
 * Records `wallet.updated` for each wallet a ledger transaction changed, in its database transaction (each with its
 * `version`: a receiver drops one older than the version it holds).
 */
export async function recordWalletsUpdated(
  trx: Kysely<Database>,
  outbox: Outbox,
  merchantId: string,
  wallets: Iterable<WalletRow>,
  now: Date,
) {
  for (const wallet of wallets) {
    await outbox.recordEvent(trx, {
      merchantId,
      type: 'wallet.updated' satisfies ReceivableEventType,
      data: presentWallet(wallet),
      now,
    });
  }
}

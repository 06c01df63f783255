import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { prepared, preparedInsert } from '../db/prepared.js';
import type { CardBrand, StoredCard } from './card.js';
import type { CardTokensTable } from './table.js';

/** A token is for one checkout: short-lived, so a leaked one is soon worthless. */
export const TOKEN_TTL_MS = 15 * 60 * 1000;

export interface CardToken {
  id: string;
  merchantId: string;
  card: StoredCard;
  usedAt: string | null;
  chargeId: string | null;
  expiresAt: string;
  createdAt: string;
}

export function toCardToken(row: Selectable<CardTokensTable>): CardToken {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    card: {
      brand: row.brand as CardBrand,
      bin: row.bin,
      last4: row.last4,
      expMonth: Number(row.exp_month),
      expYear: Number(row.exp_year),
      holderName: row.holder_name,
      hash: row.card_hash,
    },
    usedAt: row.used_at,
    chargeId: row.charge_id,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

// Every card a checkout tokenizes: one statement, prepared once (db/prepared.ts).
const insertCardToken = preparedInsert<Database, 'card_tokens'>('card_tokens');

export async function createCardToken(
  db: Kysely<Database>,
  input: { merchantId: string; card: StoredCard; now: Date },
): Promise<CardToken> {
  const { card, now } = input;
  const row: Selectable<CardTokensTable> = {
    id: newId(),
    merchant_id: input.merchantId,
    brand: card.brand,
    bin: card.bin,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    holder_name: card.holderName,
    card_hash: card.hash,
    used_at: null,
    charge_id: null,
    expires_at: new Date(now.getTime() + TOKEN_TTL_MS).toISOString(),
    created_at: now.toISOString(),
  };
  await insertCardToken(db, row);
  return toCardToken(row);
}

export type TokenConsumption =
  | { ok: true; token: CardToken }
  | { ok: false; reason: 'not_found' | 'expired' | 'already_used' };

/** What a token's consuming UPDATE is run with. */
export type TokenConsumeValues = Record<'tokenId' | 'merchantId' | 'chargeId' | 'now', string>;

/**
 * The token's consuming UPDATE, its values marked for a prepared statement (db/prepared.ts): the consumed row, or
 * nothing. The charge's PostgreSQL statement (charges/consume.ts) builds on it.
 */
export function consumingTokenUpdate(
  db: Kysely<Database>,
  value: <T = string>(name: keyof TokenConsumeValues) => T,
) {
  return db
    .updateTable('card_tokens')
    .set({ used_at: value('now'), charge_id: value('chargeId') })
    .where('id', '=', value('tokenId'))
    .where('merchant_id', '=', value('merchantId'))
    .where('used_at', 'is', null)
    .where('expires_at', '>', value('now'))
    .returningAll();
}

// Every charge consumes one: prepared once (db/prepared.ts).
const consumeToken = prepared<Database, keyof TokenConsumeValues, Selectable<CardTokensTable>>(
  consumingTokenUpdate,
);

/**
 * Marks the token used by a charge: one conditional UPDATE, so of two charges racing for a token exactly one
 * gets it, on one instance or many. Run it in the charge's transaction so that a failed charge gives it back.
 */
export async function consumeCardToken(
  db: Kysely<Database>,
  input: { merchantId: string; tokenId: string; chargeId: string; now: Date },
): Promise<TokenConsumption> {
  const { rows } = await consumeToken(db, {
    tokenId: input.tokenId,
    merchantId: input.merchantId,
    chargeId: input.chargeId,
    now: input.now.toISOString(),
  });
  return rows[0] ? { ok: true, token: toCardToken(rows[0]) } : tokenRefusal(db, input);
}

/** Why a token's consuming UPDATE changed nothing, read after it. */
export async function tokenRefusal(
  db: Kysely<Database>,
  input: { merchantId: string; tokenId: string },
): Promise<TokenConsumption & { ok: false }> {
  const current = await db
    .selectFrom('card_tokens')
    .select(['used_at', 'expires_at'])
    .where('id', '=', input.tokenId)
    .where('merchant_id', '=', input.merchantId)
    .executeTakeFirst();
  if (!current) return { ok: false, reason: 'not_found' };
  return { ok: false, reason: current.used_at !== null ? 'already_used' : 'expired' };
}

/** Deletes tokens expired before `before`; used ones are kept with their charge (receipts read them). */
export async function purgeUnusedCardTokens(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('card_tokens')
    .where('used_at', 'is', null)
    .where('expires_at', '<=', before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

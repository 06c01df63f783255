import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared } from '../db/prepared.js';
import { chargeFraudSessionError } from '../fraud/errors.js';
import {
  type ConsumeValues,
  consumeFraudSession,
  consumeSessionRow,
  consumingUpdate,
  type FraudSession,
  type RunSessionUpdate,
} from '../fraud/service.js';
import type { FraudSessionsTable } from '../fraud/table.js';
import { chargeTokenError } from '../tokens/errors.js';
import {
  type CardToken,
  consumeCardToken,
  consumingTokenUpdate,
  type TokenConsumeValues,
  toCardToken,
  tokenRefusal,
} from '../tokens/service.js';
import type { CardTokensTable } from '../tokens/table.js';

type TokenColumn = keyof CardTokensTable;

// Answered beside the session's columns under a prefix: both tables have an id, a merchant, a charge id.
const TOKEN_COLUMNS = Object.keys({
  id: true,
  merchant_id: true,
  brand: true,
  bin: true,
  last4: true,
  exp_month: true,
  exp_year: true,
  holder_name: true,
  card_hash: true,
  used_at: true,
  charge_id: true,
  expires_at: true,
  created_at: true,
} satisfies Record<TokenColumn, true>) as TokenColumn[];

/** The session's columns (null when the session was not consumed) and the consumed token's, prefixed. */
type ConsumedRow = { [C in keyof FraudSessionsTable]: Selectable<FraudSessionsTable>[C] | null } & Record<
  `token_${TokenColumn}`,
  unknown
>;

/**
 * PostgreSQL, one statement (one round trip): consume the token; only if that succeeded, consume the session; only
 * if both did, lock the card (an upsert of its row, held until the charge's transaction ends, so that a parallel
 * charge of the card waits and then counts this one). The session's UPDATE reads the token's result, so the
 * token is always taken before the session, as in every charge: two charges never wait on each other in opposite
 * orders. No row: the token was refused; a row without a session: the session was.
 */
const consumeTokenSessionAndCard = prepared<
  Database,
  keyof TokenConsumeValues | keyof ConsumeValues,
  ConsumedRow
>((db, value) =>
  db
    .with('token', () => consumingTokenUpdate(db, value))
    .with('consumed', () => consumingUpdate(db, value).where(sql<boolean>`exists (select from token)`))
    .with('locked', (creator) =>
      creator
        .insertInto('card_velocity_locks')
        .columns(['merchant_id', 'card_hash', 'last_charge_at'])
        .expression((eb) =>
          eb
            .selectFrom(['consumed', 'token'])
            .select(['consumed.merchant_id', 'token.card_hash', eb.val(value('now')).as('last_charge_at')]),
        )
        .onConflict((conflict) =>
          conflict.columns(['merchant_id', 'card_hash']).doUpdateSet({ last_charge_at: value('now') }),
        ),
    )
    .selectFrom('token')
    .leftJoin('consumed', (join) => join.onTrue())
    .selectAll('consumed')
    .select(TOKEN_COLUMNS.map((column) => sql.ref(`token.${column}`).as(`token_${column}`))),
);

/** SQLite: the card's lock, after the session's UPDATE (one write transaction at a time: it only costs the write). */
const lockCard = prepared<Database, 'merchantId' | 'cardHash' | 'now', never>((db, value) =>
  db
    .insertInto('card_velocity_locks')
    .values({ merchant_id: value('merchantId'), card_hash: value('cardHash'), last_charge_at: value('now') })
    .onConflict((conflict) =>
      conflict.columns(['merchant_id', 'card_hash']).doUpdateSet({ last_charge_at: value('now') }),
    ),
);

const consumingThenLocking =
  (db: Kysely<Database>, cardHash: string): RunSessionUpdate =>
  async (values) => {
    const consumed = await consumeSessionRow(db, values);
    if (consumed) await lockCard(db, { merchantId: values.merchantId, cardHash, now: values.now });
    return consumed;
  };

/**
 * What a charge consumes, in its transaction: its card token, then its fraud session (when given) with its card's
 * lock. A refusal throws the interface's error (the token's first) and the transaction's rollback undoes what was
 * consumed. The risk step's counts (`recentHistory`) must come in a later statement: a PostgreSQL statement reads
 * from the snapshot it started with, so only a later one sees the charge of a transaction the lock waited for.
 */
export async function consumeForCharge(
  trx: Kysely<Database>,
  input: { merchantId: string; tokenId: string; sessionId: string | null; chargeId: string; now: Date },
): Promise<{ token: CardToken; session: FraudSession | null }> {
  const { merchantId, tokenId, sessionId, chargeId, now } = input;
  if (sessionId !== null && dialectOf(trx) === 'postgres') {
    const values = { merchantId, tokenId, sessionId, chargeId, now: now.toISOString() };
    const row = (await consumeTokenSessionAndCard(trx, values)).rows[0];
    if (!row) throw chargeTokenError((await tokenRefusal(trx, input)).reason);
    const tokenRow = Object.fromEntries(TOKEN_COLUMNS.map((column) => [column, row[`token_${column}`]]));
    const session = await consumeFraudSession(trx, { merchantId, sessionId, chargeId, now }, async () =>
      row.id === null ? undefined : (row as Selectable<FraudSessionsTable>),
    );
    if (!session.ok) throw chargeFraudSessionError(session.reason);
    return { token: toCardToken(tokenRow as Selectable<CardTokensTable>), session: session.session };
  }
  const token = await consumeCardToken(trx, { merchantId, tokenId, chargeId, now });
  if (!token.ok) throw chargeTokenError(token.reason);
  if (sessionId === null) return { token: token.token, session: null };
  const session = await consumeFraudSession(
    trx,
    { merchantId, sessionId, chargeId, now },
    consumingThenLocking(trx, token.token.card.hash),
  );
  if (!session.ok) throw chargeFraudSessionError(session.reason);
  return { token: token.token, session: session.session };
}

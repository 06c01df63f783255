import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { cardHash } from '../../../src/server/tokens/card.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { CARDS, postToken } from '../../helpers/charges.js';

/** Every row of every table, as text: what a stolen database holds. */
async function everyStoredValue(app: VigiaApp): Promise<string> {
  const tables =
    app.store.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(app.store.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(app.store.db);
  let dump = '';
  for (const { name } of tables.rows) {
    const rows = await sql`select * from ${sql.table(name)}`.execute(app.store.db);
    dump += `${name}: ${JSON.stringify(rows.rows)}\n`;
  }
  return dump;
}

describe.each(DIALECTS)('tokenizing with Idempotency-Key on %s (issue 12 item 2)', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
  });

  it('keeps nothing derived from the CVV, and the card number only as its keyed hash', async () => {
    const first = await postToken(app, merchant, { cvv: '731' }, { 'idempotency-key': 'checkout-1' });
    const second = await postToken(app, merchant, { cvv: '864' }, { 'idempotency-key': 'checkout-2' });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);

    const keys = await app.store.db
      .selectFrom('idempotency_keys')
      .select(['idempotency_key', 'request_hash', 'response_body'])
      .where('merchant_id', '=', merchant.id)
      .orderBy('idempotency_key')
      .execute();
    expect(keys).toHaveLength(2);
    // The two requests differ only in their CVV: a fingerprint that depended on it would differ too, and a
    // thief holding the card-hash key could recover the CVV from it in 1,000 guesses.
    expect(keys[0]!.request_hash).toBe(keys[1]!.request_hash);

    const dump = await everyStoredValue(app);
    expect(dump).not.toContain(CARDS.approved);
    expect(dump).not.toContain('"cvv"');
    expect(dump).toContain(cardHash(app.config.cardHashKey, CARDS.approved));
  });

  it('still tells two cards apart under one key, and replays the same card', async () => {
    const headers = { 'idempotency-key': 'checkout-3' };
    const first = await postToken(app, merchant, { cvv: '111' }, headers);
    const replay = await postToken(app, merchant, { cvv: '111' }, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(first.json().data.id);
    const otherCard = await postToken(app, merchant, { number: CARDS.mastercard }, headers);
    expect(otherCard.statusCode).toBe(422);
    expect(otherCard.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

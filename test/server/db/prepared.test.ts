import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/db/connect.js';
import { prepared } from '../../../src/server/db/prepared.js';
import { DIALECTS, freshDatabaseUrl } from '../../helpers/app.js';

interface Db {
  counters: { key: string; points: number; expire: number };
}

// One statement for every call: each call's values, in the places the markers stood, on both dialects.
const upsert = prepared((db: Kysely<Db>, value) =>
  db
    .insertInto('counters')
    .values({ key: value('key'), points: value<number>('points'), expire: value<number>('expire') })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ points: value<number>('points') }))
    .returning(['key', 'points', 'expire']),
);

describe.each(DIALECTS)('prepared statements (%s)', (dialect) => {
  let store: Store<Db>;

  beforeAll(async () => {
    const url = await freshDatabaseUrl(dialect);
    store = openStore<Db>(url);
    await store.db.schema
      .createTable('counters')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('points', 'integer', (column) => column.notNull())
      .addColumn('expire', 'bigint', (column) => column.notNull())
      .execute();
  });
  afterAll(() => store.db.destroy());

  it("runs with each call's values, a value used twice bound twice", async () => {
    const first = await upsert(store.db, { key: 'a', points: 3, expire: 100 });
    const second = await upsert(store.db, { key: 'b', points: 5, expire: 200 });
    const again = await upsert(store.db, { key: 'a', points: 9, expire: 300 });
    expect(
      first.rows.map((row) => ({ ...row, points: Number(row.points), expire: Number(row.expire) })),
    ).toEqual([{ key: 'a', points: 3, expire: 100 }]);
    expect(Number(second.rows[0]!.points)).toBe(5);
    // The conflict kept a's expiry and took the new points.
    expect(again.rows.map((row) => [row.key, Number(row.points), Number(row.expire)])).toEqual([
      ['a', 9, 100],
    ]);
  });

  it('reports how many rows it changed, as conditional updates check', async () => {
    const bump = prepared((db: Kysely<Db>, value) =>
      db
        .updateTable('counters')
        .set({ points: value<number>('points') })
        .where('key', '=', value('key')),
    );
    expect((await bump(store.db, { key: 'a', points: 10 })).numAffectedRows).toBe(1n);
    expect((await bump(store.db, { key: 'none', points: 10 })).numAffectedRows).toBe(0n);
  });

  it('works inside a transaction and is undone with it', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await upsert(trx, { key: 'c', points: 1, expire: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const rows = await store.db.selectFrom('counters').select('key').where('key', '=', 'c').execute();
    expect(rows).toEqual([]);
  });

  it('refuses a statement with a value that is not a marker (it would be frozen into every call)', async () => {
    const frozen = prepared((db: Kysely<Db>, value) =>
      db.updateTable('counters').set({ points: 1 }).where('key', '=', value('key')),
    );
    await expect(frozen(store.db, { key: 'a' })).rejects.toThrow('unmarked value');
  });
});

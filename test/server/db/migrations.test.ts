import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/db/connect.js';
import { MigrationError, migrateToLatest } from '../../../src/server/db/migrate.js';
import { DIALECTS, freshDatabaseUrl } from '../../helpers/app.js';

const createTable = (name: string) => async (db: Kysely<unknown>) => {
  await db.schema
    .createTable(name)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .execute();
};

async function tableExists(store: Store<unknown>, name: string): Promise<boolean> {
  const query =
    store.dialect === 'sqlite'
      ? sql`select name from sqlite_master where type = 'table' and name = ${name}`
      : sql`select table_name from information_schema.tables where table_schema = current_schema() and table_name = ${name}`;
  return (await query.execute(store.db)).rows.length > 0;
}

describe.each(DIALECTS)('migrations on %s (issue 12 item 12)', (dialect) => {
  let store: Store<unknown>;
  afterEach(async () => store.close());

  it('a migration that fails mid-way leaves the previous schema, and the fixed one applies on the next start', async () => {
    store = openStore(await freshDatabaseUrl(dialect));
    await migrateToLatest(store.db, { '0001_first': { up: createTable('first') } });

    const failing = {
      up: async (db: Kysely<unknown>) => {
        await createTable('half_done')(db);
        throw new Error('the process died here');
      },
    };
    await expect(
      migrateToLatest(store.db, { '0001_first': { up: createTable('first') }, '0002_second': failing }),
    ).rejects.toThrow(MigrationError);
    expect(await tableExists(store, 'first')).toBe(true);
    expect(await tableExists(store, 'half_done')).toBe(false);

    const fixed = { up: createTable('half_done') };
    const applied = await migrateToLatest(store.db, {
      '0001_first': { up: createTable('first') },
      '0002_second': fixed,
    });
    expect(applied).toEqual(['0002_second']);
    expect(await tableExists(store, 'half_done')).toBe(true);
  });
});

import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * PIX and boleto charges have no card: the charge's card columns (and the device graph's card key) become
 * nullable. A charge that waits for its money gets `expires_at` (null otherwise), found by the expiry job through
 * a partial index of the pending charges only; the list's `payment_method` filter gets its own index.
 *
 * PostgreSQL drops the NOT NULL constraints in place (a catalogue change). SQLite cannot: it REBUILDS `charges`
 * and `device_graph` (big tables: the copy takes as long as writing them once, and holds the write lock meanwhile),
 * following SQLite's "making other kinds of table schema changes" procedure: the new table is made from the
 * current `CREATE TABLE` text (so columns other migrations added are kept) with the constraints removed, every row
 * copied with its rowid (the day-keyed search index of 0039 names charges by rowid), the old table dropped, the
 * new one renamed, and every index and trigger the old table had (0006, 0017, 0033, 0039 and any later one) made
 * again from their own text. No table references charges or device_graph with a foreign key, so dropping the old
 * one deletes nothing elsewhere (foreign keys are deferred to the commit anyway, the migration's transaction).
 */
const CARD_COLUMNS = [
  'card_token_id',
  'card_brand',
  'card_bin',
  'card_last4',
  'card_exp_month',
  'card_exp_year',
  'card_holder_name',
  'card_hash',
];

async function rebuildSqliteTableWithNullable(db: Kysely<unknown>, table: string, columns: string[]) {
  const { rows: schema } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const created = schema.find((entry) => entry.type === 'table')?.sql;
  if (!created) throw new Error(`Table ${table} was not found.`);
  let rebuilt = created.replace(/^create table\s+("?)\w+\1/i, `create table "${table}_rebuilt"`);
  for (const column of columns) {
    const notNull = new RegExp(`("?${column}"?\\s+\\w+[^,]*?)\\s+not null`, 'i');
    if (!notNull.test(rebuilt)) throw new Error(`${table}.${column} has no NOT NULL to remove.`);
    rebuilt = rebuilt.replace(notNull, '$1');
  }
  const { rows: info } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(
    db,
  );
  const names = sql.join(info.map((column) => sql.ref(column.name)));
  await sql`pragma defer_foreign_keys = on`.execute(db);
  await sql.raw(rebuilt).execute(db);
  await sql`insert into ${sql.table(`${table}_rebuilt`)} (rowid, ${names})
    select rowid, ${names} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(`${table}_rebuilt`)} rename to ${sql.table(table)}`.execute(db);
  for (const entry of schema) {
    if ((entry.type === 'index' || entry.type === 'trigger') && entry.sql)
      await sql.raw(entry.sql).execute(db);
  }
}

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('charges').addColumn('expires_at', 'text').execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await rebuildSqliteTableWithNullable(db, 'charges', CARD_COLUMNS);
      await rebuildSqliteTableWithNullable(db, 'device_graph', ['card_key']);
    } else {
      for (const column of CARD_COLUMNS) {
        await sql`alter table charges alter column ${sql.ref(column)} drop not null`.execute(db);
      }
      await sql`alter table device_graph alter column card_key drop not null`.execute(db);
    }
    await db.schema
      .createIndex('charges_pending_expiry')
      .on('charges')
      .column('expires_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema
      .createIndex('charges_merchant_method_created')
      .on('charges')
      .columns(['merchant_id', 'payment_method', 'created_at', 'id'])
      .execute();
  },
  /** Keeps the columns nullable (a card charge always fills them); drops what `up` added. */
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('charges_merchant_method_created').execute();
    await db.schema.dropIndex('charges_pending_expiry').execute();
    await db.schema.alterTable('charges').dropColumn('expires_at').execute();
  },
};

export default migration;

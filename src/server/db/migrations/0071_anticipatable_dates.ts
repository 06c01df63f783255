import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * What an anticipation may take, per wallet and payment date: how many free waiting receivables (`waiting_funds`,
 * no `anticipation_id`) and the sum of their net, so that the limits read a few hundred date rows instead of every
 * receivable (docs/decisions/anticipation-limits-query.md). Kept by triggers on `receivables`, in the statement
 * that changes a receivable, whatever code writes it (booking, settlement, reservations, a new status): nothing
 * else maintains it. A row whose count reaches zero is deleted. SQLite: row triggers; PostgreSQL: statement
 * triggers over the transition tables, one grouped upsert per statement (a reservation of 500 receivables is one
 * upsert, not 500), the rows in key order so that two statements lock them in the same order. Existing
 * receivables are counted here; a new table, no rebuild of `receivables`.
 */
const free = (row: string) => `${row}.status = 'waiting_funds' and ${row}.anticipation_id is null`;
const FREE = (row: string) => sql.raw(free(row));

const SQLITE_TRIGGERS = ['insert', 'delete', 'update_out', 'update_in'].map(
  (name) => `anticipatable_dates_${name}`,
);

async function sqliteUp(db: Kysely<unknown>) {
  const add = sql`insert into anticipatable_dates (wallet_id, payment_date, receivables, net_amount)
    values (new.wallet_id, new.payment_date, 1, new.net_amount)
    on conflict (wallet_id, payment_date) do update
    set receivables = receivables + 1, net_amount = net_amount + excluded.net_amount;`;
  const remove = sql`update anticipatable_dates set receivables = receivables - 1, net_amount = net_amount - old.net_amount
      where wallet_id = old.wallet_id and payment_date = old.payment_date;
    delete from anticipatable_dates
      where wallet_id = old.wallet_id and payment_date = old.payment_date and receivables = 0;`;
  const columns = sql.raw('status, anticipation_id, wallet_id, payment_date, net_amount');
  await sql`create trigger anticipatable_dates_insert after insert on receivables
    when ${FREE('new')} begin ${add} end`.execute(db);
  await sql`create trigger anticipatable_dates_delete after delete on receivables
    when ${FREE('old')} begin ${remove} end`.execute(db);
  await sql`create trigger anticipatable_dates_update_out after update of ${columns} on receivables
    when ${FREE('old')} begin ${remove} end`.execute(db);
  await sql`create trigger anticipatable_dates_update_in after update of ${columns} on receivables
    when ${FREE('new')} begin ${add} end`.execute(db);
}

async function postgresUp(db: Kysely<unknown>) {
  // `removed` / `added`: the transition tables each trigger names.
  const change = (sign: '' | '-', rows: 'added' | 'removed') =>
    `select wallet_id, payment_date, ${sign}count(*) as receivables, ${sign}sum(net_amount) as net_amount
      from ${rows} where ${free(rows)} group by wallet_id, payment_date`;
  const apply = (changes: string) => `
    insert into anticipatable_dates (wallet_id, payment_date, receivables, net_amount)
      select wallet_id, payment_date, sum(receivables), sum(net_amount) from (${changes}) as changes
      group by wallet_id, payment_date having sum(receivables) <> 0 or sum(net_amount) <> 0
      order by wallet_id, payment_date
    on conflict (wallet_id, payment_date) do update
      set receivables = anticipatable_dates.receivables + excluded.receivables,
          net_amount = anticipatable_dates.net_amount + excluded.net_amount;`;
  const emptied = `
    delete from anticipatable_dates as dates using (select distinct wallet_id, payment_date from removed
      where ${free('removed')}) as keys
    where dates.wallet_id = keys.wallet_id and dates.payment_date = keys.payment_date and dates.receivables = 0;`;
  const bodies = {
    insert: apply(change('', 'added')),
    delete: apply(change('-', 'removed')) + emptied,
    update: apply(`${change('-', 'removed')} union all ${change('', 'added')}`) + emptied,
  };
  const transitions = {
    insert: 'new table as added',
    delete: 'old table as removed',
    update: 'old table as removed new table as added',
  };
  for (const event of ['insert', 'delete', 'update'] as const) {
    const name = sql.raw(`anticipatable_dates_${event}`);
    await sql`create function ${name}() returns trigger language plpgsql as $$
      begin ${sql.raw(bodies[event])} return null; end $$`.execute(db);
    await sql`create trigger ${name} after ${sql.raw(event)} on receivables
      referencing ${sql.raw(transitions[event])} for each statement execute function ${name}()`.execute(db);
  }
}

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('anticipatable_dates')
      .addColumn('wallet_id', 'text', (column) => column.notNull())
      .addColumn('payment_date', 'text', (column) => column.notNull())
      .addColumn('receivables', 'bigint', (column) => column.notNull())
      .addColumn('net_amount', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('anticipatable_dates_pkey', ['wallet_id', 'payment_date'])
      .execute();
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await (postgres ? postgresUp(db) : sqliteUp(db));
    await sql`insert into anticipatable_dates (wallet_id, payment_date, receivables, net_amount)
      select wallet_id, payment_date, count(*), sum(net_amount) from receivables
      where ${FREE('receivables')} group by wallet_id, payment_date`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const name of ['insert', 'delete', 'update']) {
        await sql`drop trigger ${sql.raw(`anticipatable_dates_${name}`)} on receivables`.execute(db);
        await sql`drop function ${sql.raw(`anticipatable_dates_${name}`)}()`.execute(db);
      }
    } else {
      for (const trigger of SQLITE_TRIGGERS) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await db.schema.dropTable('anticipatable_dates').execute();
  },
};

export default migration;

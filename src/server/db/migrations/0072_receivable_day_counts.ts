import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * 0072: counts of receivables per day, kept as 0069 keeps them per recipient
 * (docs/decisions/receivable-list-totals.md), so that the list's total of a range of payment dates or of creation
 * dates is a sum over the range's days instead of a count of its receivables. Two tables, one per kind of day:
 * `receivable_payment_day_counts` (merchant, recipient, payment_date) and `receivable_creation_day_counts`
 * (merchant, recipient, created_on: the UTC day of `created_at`, the days `date_from`/`date_to` select), each with
 * a column per status and a row per merchant for every recipient (`recipient_id = ''`).
 *
 * SQLite: row triggers beside 0069's. PostgreSQL: 0069's staging is replaced by one that keeps all three tables:
 * a statement trigger stages the statement's changes, summed, as ONE row (a column of arrays each) in
 * `receivable_count_changes`, and a deferred constraint trigger applies it at commit in three set-based upserts,
 * the merchant's `receivable_counts` row first (even when its counts did not change), then each table's rows in
 * key order. A booking's dozens of days are then one staged row, not one per day. New tables and triggers: no
 * table rebuild on SQLite; backfilled from the existing receivables.
 */
const STATUSES = ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'] as const;
const COLUMNS = STATUSES.join(', ');

/** Each day table, with the column of its day and the expression of a receivable's day (`row`: new/old/none). */
const DAYS = [
  {
    table: 'receivable_payment_day_counts',
    kind: 'payment',
    column: 'payment_date',
    of: (row: string) => `${row}payment_date`,
  },
  {
    table: 'receivable_creation_day_counts',
    kind: 'created',
    column: 'created_on',
    of: (row: string) => `substr(${row}created_at, 1, 10)`,
  },
] as const;

const setAdded = (table: string) =>
  STATUSES.map((status) => `${status} = ${table}.${status} + excluded.${status}`).join(', ');

/** SQLite: adds a receivable (`row`: new or old) times `sign` to a day table's row of `recipient`. */
const addToDay = (day: (typeof DAYS)[number], row: 'new' | 'old', sign: 1 | -1, recipient: string) =>
  `insert into ${day.table} (merchant_id, recipient_id, ${day.column}, ${COLUMNS})
    values (${row}.merchant_id, ${recipient}, ${day.of(`${row}.`)},
      ${STATUSES.map((s) => `case when ${row}.status = '${s}' then ${sign} else 0 end`).join(', ')})
    on conflict (merchant_id, recipient_id, ${day.column}) do update set ${setAdded(day.table)};`;

const sqliteChanges = (changes: ['new' | 'old', 1 | -1][]) =>
  DAYS.flatMap((day) =>
    changes.flatMap(([row, sign]) => [
      addToDay(day, row, sign, "''"),
      addToDay(day, row, sign, `${row}.recipient_id`),
    ]),
  ).join('\n');

const DAY_CHANGED = `old.status <> new.status or old.recipient_id <> new.recipient_id
  or old.merchant_id <> new.merchant_id or old.payment_date <> new.payment_date
  or substr(old.created_at, 1, 10) <> substr(new.created_at, 1, 10)`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const triggers = {
    insert: `after insert on receivables begin ${sqliteChanges([['new', 1]])} end`,
    update: `after update of status, recipient_id, merchant_id, payment_date, created_at on receivables
      when ${DAY_CHANGED} begin ${sqliteChanges([
        ['old', -1],
        ['new', 1],
      ])} end`,
    delete: `after delete on receivables begin ${sqliteChanges([['old', -1]])} end`,
  };
  for (const [event, body] of Object.entries(triggers)) {
    await sql`create trigger ${sql.raw(`receivable_day_counts_${event}`)} ${sql.raw(body)}`.execute(db);
  }
}

const STATUS_SUMS = STATUSES.map((s) => `sum(case when status = '${s}' then sign else 0 end) as ${s}`).join(
  ', ',
);
const ANY_CHANGE = STATUSES.map((s) => `sum(case when status = '${s}' then sign else 0 end) <> 0`).join(
  ' or ',
);
/** A staged row's columns: arrays, one element per count row to change (arrays cost half what JSON did). */
const STAGED = ['counted', 'merchant_id', 'recipient_id', 'day', ...STATUSES];
/** The count rows of the staged row `new`. */
const STAGED_ROWS = `unnest(${STAGED.map((column) => `new.${column}`).join(', ')}) as staged(${STAGED.join(', ')})`;

/**
 * PostgreSQL: the statement's changes (`changes`: merchant_id, recipient_id, status, payment_date, created_at,
 * sign), summed per count row, staged as one row of arrays when anything counted changed.
 */
const stage = (changes: string) => `
  with changes as (${changes}),
  each_row as (
    select merchant_id, '' as recipient_id, status, payment_date, substr(created_at, 1, 10) as created_on, sign
      from changes
    union all select merchant_id, recipient_id, status, payment_date, substr(created_at, 1, 10), sign from changes),
  summed as (
    select 'all' as counted, merchant_id, recipient_id, '' as day, ${STATUS_SUMS} from each_row
      group by merchant_id, recipient_id having ${ANY_CHANGE}
    union all select 'payment', merchant_id, recipient_id, payment_date, ${STATUS_SUMS} from each_row
      group by merchant_id, recipient_id, payment_date having ${ANY_CHANGE}
    union all select 'created', merchant_id, recipient_id, created_on, ${STATUS_SUMS} from each_row
      group by merchant_id, recipient_id, created_on having ${ANY_CHANGE})
  insert into receivable_count_changes (${STAGED.join(', ')})
    select ${STAGED.map((column) => `array_agg(${column})`).join(', ')} from summed having count(*) > 0;`;

/** PostgreSQL: adds the staged rows of one kind to their table, in key order. */
const applyDays = (day: (typeof DAYS)[number]) => `
  insert into ${day.table} (merchant_id, recipient_id, ${day.column}, ${COLUMNS})
    select merchant_id, recipient_id, day, ${COLUMNS} from ${STAGED_ROWS}
    where counted = '${day.kind}' order by merchant_id, recipient_id, day
    on conflict (merchant_id, recipient_id, ${day.column}) do update set ${setAdded(day.table)};`;

/**
 * PostgreSQL: the function that applies a staged row at commit, after the writer's other locks; the merchant's
 * row first, even when its counts did not change, so that every writer of a merchant queues on it before it
 * touches any other count row (docs/decisions/receivable-list-totals.md). Then the rows of each of `days`.
 */
async function applyAtCommit(db: Kysely<unknown>, days: readonly (typeof DAYS)[number][]) {
  await sql`create or replace function vigia_receivable_counts_apply() returns trigger language plpgsql as $$
    begin
      insert into receivable_counts (merchant_id, recipient_id, ${sql.raw(COLUMNS)})
        select merchant_id, recipient_id, ${sql.raw(STATUSES.map((s) => `sum(${s})`).join(', '))}
        from (select merchant_id, recipient_id, ${sql.raw(COLUMNS)}
                from ${sql.raw(STAGED_ROWS)} where counted = 'all'
              union all select distinct unnest(new.merchant_id), '', ${sql.raw(STATUSES.map(() => '0').join(', '))}
              ) as each_count
        group by merchant_id, recipient_id order by merchant_id, recipient_id
        on conflict (merchant_id, recipient_id) do update set ${sql.raw(setAdded('receivable_counts'))};
      ${sql.raw(days.map(applyDays).join('\n'))}
      delete from receivable_count_changes where id = new.id;
      return null;
    end $$`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop trigger ${sql.raw(`receivable_counts_${event}`)} on receivables`.execute(db);
    await sql`drop function ${sql.raw(`vigia_receivable_counts_${event}`)}()`.execute(db);
  }
  // 0069's staged rows were applied at their commit: the table is empty.
  await sql`drop table receivable_count_changes`.execute(db);
  await sql`drop function vigia_receivable_counts_apply()`.execute(db);
  await sql`create table receivable_count_changes (id bigserial primary key,
    counted text[] not null, merchant_id text[] not null, recipient_id text[] not null, day text[] not null,
    ${sql.raw(STATUSES.map((s) => `${s} bigint[] not null`).join(', '))})`.execute(db);

  const columns = 'merchant_id, recipient_id, status, payment_date, created_at';
  for (const [event, changes, tables] of [
    ['insert', `select ${columns}, 1 as sign from added`, 'new table as added'],
    [
      'update',
      `select ${columns}, 1 as sign from added union all select ${columns}, -1 from removed`,
      'old table as removed new table as added',
    ],
    ['delete', `select ${columns}, -1 as sign from removed`, 'old table as removed'],
  ] as const) {
    await sql`create function ${sql.raw(`vigia_receivable_counts_${event}`)}() returns trigger
      language plpgsql as $$ begin ${sql.raw(stage(changes))} return null; end $$`.execute(db);
    await sql`create trigger ${sql.raw(`receivable_counts_${event}`)} after ${sql.raw(event)} on receivables
      referencing ${sql.raw(tables)} for each statement
      execute function ${sql.raw(`vigia_receivable_counts_${event}`)}()`.execute(db);
  }
  await applyAtCommit(db, DAYS);
  await sql`create constraint trigger receivable_counts_apply after insert on receivable_count_changes
    deferrable initially deferred for each row execute function vigia_receivable_counts_apply()`.execute(db);
}

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const day of DAYS) {
      let table = db.schema
        .createTable(day.table)
        .addColumn('merchant_id', 'text', (col) => col.notNull())
        .addColumn('recipient_id', 'text', (col) => col.notNull())
        .addColumn(day.column, 'text', (col) => col.notNull());
      for (const status of STATUSES) table = table.addColumn(status, 'bigint', (col) => col.notNull());
      await table
        .addPrimaryKeyConstraint(`${day.table}_pk`, ['merchant_id', 'recipient_id', day.column])
        .execute();
      const counted = STATUSES.map((s) => `sum(case when status = '${s}' then 1 else 0 end)`).join(', ');
      for (const recipient of ["''", 'recipient_id']) {
        await sql`insert into ${sql.raw(day.table)} (merchant_id, recipient_id, ${sql.raw(day.column)}, ${sql.raw(COLUMNS)})
          select merchant_id, ${sql.raw(recipient)}, ${sql.raw(day.of(''))}, ${sql.raw(counted)} from receivables
          group by merchant_id, ${sql.raw(recipient === "''" ? '' : 'recipient_id, ')}${sql.raw(day.of(''))}`.execute(
          db,
        );
      }
    }
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteTriggers(db);
    else await postgresTriggers(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`drop trigger ${sql.raw(`receivable_day_counts_${event}`)}`.execute(db);
      }
    }
    // PostgreSQL keeps this migration's staging, which keeps 0069's counts too; it no longer applies days.
    else await applyAtCommit(db, []);
    for (const day of DAYS) await db.schema.dropTable(day.table).cascade().execute();
  },
};

export default migration;

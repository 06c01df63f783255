import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * 0069: the receivables list reads its `total` from kept counts (docs/decisions/receivable-list-totals.md):
 * one row per (merchant, recipient) with a column per status, and one per merchant for every recipient
 * (`recipient_id = ''`). Triggers keep them in the writer's transaction on every INSERT, UPDATE and DELETE of
 * receivables, so no writer can forget them. On PostgreSQL the counts are added at commit (a deferred trigger,
 * `postgresTriggers`), after the writer took its other locks (a wallet, an anticipation), and each writer locks
 * its merchant's row first, so the count rows never take part in a deadlock. Backfilled from the existing
 * receivables. New tables and triggers: no table rebuild on SQLite.
 */
const STATUSES = ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'] as const;

/** Adds a receivable (`row`: `new` or `old`) times `sign` to the count row of `recipient`. */
const add = (row: 'new' | 'old', sign: 1 | -1, recipient: string) =>
  `insert into receivable_counts (merchant_id, recipient_id, ${STATUSES.join(', ')})
    values (${row}.merchant_id, ${recipient}, ${STATUSES.map((s) => `case when ${row}.status = '${s}' then ${sign} else 0 end`).join(', ')})
    on conflict (merchant_id, recipient_id) do update set
    ${STATUSES.map((s) => `${s} = receivable_counts.${s} + excluded.${s}`).join(', ')};`;

/** The merchant's rows first: every writer locks its merchant's row before a recipient's. */
const upsert = (changes: ['new' | 'old', 1 | -1][]) =>
  [
    ...changes.map(([row, sign]) => add(row, sign, "''")),
    ...changes.map(([row, sign]) => add(row, sign, `${row}.recipient_id`)),
  ].join('\n');

const ON_INSERT = upsert([['new', 1]]);
const ON_UPDATE = upsert([
  ['old', -1],
  ['new', 1],
]);
const ON_DELETE = upsert([['old', -1]]);
const CHANGED = 'old.status <> new.status or old.recipient_id <> new.recipient_id';

async function sqliteTriggers(db: Kysely<unknown>) {
  await sql`create trigger receivable_counts_insert after insert on receivables begin ${sql.raw(ON_INSERT)} end`.execute(
    db,
  );
  await sql`create trigger receivable_counts_update after update of status, recipient_id on receivables
    when ${sql.raw(CHANGED)} begin ${sql.raw(ON_UPDATE)} end`.execute(db);
  await sql`create trigger receivable_counts_delete after delete on receivables begin ${sql.raw(ON_DELETE)} end`.execute(
    db,
  );
}

const COLUMNS = STATUSES.join(', ');

/**
 * PostgreSQL: a statement's changes, summed per (merchant, recipient), are staged in `receivable_count_changes`
 * (the merchant's row first) by a statement trigger; a deferred constraint trigger on that table adds each staged
 * row to the counts at commit, and deletes it. A settlement of thousands of receivables is then two additions at
 * commit, where a deferred trigger per receivable would update the same count row thousands of times in one
 * transaction (each update a new row version that the next one walks past).
 */
async function postgresTriggers(db: Kysely<unknown>) {
  await sql`create table receivable_count_changes (
    id bigserial primary key, merchant_id text not null, recipient_id text not null,
    ${sql.raw(STATUSES.map((s) => `${s} bigint not null`).join(', '))})`.execute(db);
  const sums = STATUSES.map((s) => `sum(case when status = '${s}' then sign else 0 end)`);
  for (const [event, changes] of [
    ['insert', 'select merchant_id, recipient_id, status, 1 as sign from added'],
    [
      'update',
      `select merchant_id, recipient_id, status, 1 as sign from added
        union all select merchant_id, recipient_id, status, -1 from removed`,
    ],
    ['delete', 'select merchant_id, recipient_id, status, -1 as sign from removed'],
  ] as const) {
    await sql`create function ${sql.raw(`vigia_receivable_counts_${event}`)}() returns trigger
      language plpgsql as $$
      begin
        with changes as (${sql.raw(changes)})
        insert into receivable_count_changes (merchant_id, recipient_id, ${sql.raw(COLUMNS)})
          select merchant_id, recipient_id, ${sql.raw(sums.join(', '))}
          from (select merchant_id, '' as recipient_id, status, sign from changes
                union all select merchant_id, recipient_id, status, sign from changes) as each_change
          group by merchant_id, recipient_id
          having ${sql.raw(sums.map((sum) => `${sum} <> 0`).join(' or '))}
          order by merchant_id, recipient_id;
        return null;
      end $$`.execute(db);
    const tables = {
      insert: 'new table as added',
      update: 'old table as removed new table as added',
      delete: 'old table as removed',
    }[event];
    await sql`create trigger ${sql.raw(`receivable_counts_${event}`)} after ${sql.raw(event)} on receivables
      referencing ${sql.raw(tables)} for each statement
      execute function ${sql.raw(`vigia_receivable_counts_${event}`)}()`.execute(db);
  }
  await sql`create function vigia_receivable_counts_apply() returns trigger language plpgsql as $$
    begin
      insert into receivable_counts (merchant_id, recipient_id, ${sql.raw(COLUMNS)})
        values (new.merchant_id, new.recipient_id, ${sql.raw(STATUSES.map((s) => `new.${s}`).join(', '))})
        on conflict (merchant_id, recipient_id) do update set
        ${sql.raw(STATUSES.map((s) => `${s} = receivable_counts.${s} + excluded.${s}`).join(', '))};
      delete from receivable_count_changes where id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger receivable_counts_apply after insert on receivable_count_changes
    deferrable initially deferred for each row execute function vigia_receivable_counts_apply()`.execute(db);
}

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    let table = db.schema
      .createTable('receivable_counts')
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('recipient_id', 'text', (col) => col.notNull());
    for (const status of STATUSES) table = table.addColumn(status, 'bigint', (col) => col.notNull());
    await table.addPrimaryKeyConstraint('receivable_counts_pk', ['merchant_id', 'recipient_id']).execute();
    const counted = sql.raw(
      STATUSES.map((s) => `sum(case when status = '${s}' then 1 else 0 end)`).join(', '),
    );
    const columns = sql.raw(STATUSES.join(', '));
    await sql`insert into receivable_counts (merchant_id, recipient_id, ${columns})
      select merchant_id, '', ${counted} from receivables group by merchant_id`.execute(db);
    await sql`insert into receivable_counts (merchant_id, recipient_id, ${columns})
      select merchant_id, recipient_id, ${counted} from receivables group by merchant_id, recipient_id`.execute(
      db,
    );
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteTriggers(db);
    else await postgresTriggers(db);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.raw(`receivable_counts_${event}`)} ${sql.raw(sqlite ? '' : 'on receivables')}`.execute(
        db,
      );
      if (!sqlite) await sql`drop function ${sql.raw(`vigia_receivable_counts_${event}`)}()`.execute(db);
    }
    if (!sqlite) {
      await db.schema.dropTable('receivable_count_changes').execute();
      await sql`drop function vigia_receivable_counts_apply()`.execute(db);
    }
    await db.schema.dropTable('receivable_counts').execute();
  },
};

export default migration;

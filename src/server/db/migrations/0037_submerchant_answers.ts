import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * 0037: GET /v1/submerchants/:id keeps its answer (the JSON its statement writes) with the submerchant, so
 * that a read is one primary-key read of text instead of ~40 nested aggregates
 * (docs/decisions/get-v1-submerchants-id-reads-its-stored-answer-subread.md). One row per submerchant,
 * created with it. Every write to the submerchant or to a row the answer shows (representatives, addresses,
 * documents, status changes) bumps `version` and clears the answer, by trigger, in the writer's transaction:
 * no writer can forget it, on any instance. A read that finds no answer builds it and stores it only if
 * `version` is still the one it read with the data, so a racing write is never overwritten by an older
 * answer. `valid_from` / `stale_after` bound the request clocks the answer holds for (documents' expiry);
 * `format` names the statement that wrote it, so a release that changes the answer's shape never reads an
 * older one.
 */
const ANSWER_COLUMNS = 'format = null, head = null, status_history = null, requirements_input = null';
const ATTACHED = [
  'submerchant_representatives',
  'submerchant_addresses',
  'submerchant_documents',
  'submerchant_status_changes',
] as const;

async function sqliteTriggers(db: Kysely<unknown>) {
  const stale = (ids: string) =>
    sql.raw(
      `update submerchant_answers set version = version + 1, ${ANSWER_COLUMNS} where submerchant_id in (${ids});`,
    );
  await sql`create trigger submerchant_answers_create after insert on submerchants begin
    insert into submerchant_answers (submerchant_id, merchant_id) values (new.id, new.merchant_id);
  end`.execute(db);
  await sql`create trigger submerchant_answers_own after update on submerchants begin ${stale('new.id')} end`.execute(
    db,
  );
  for (const table of ATTACHED) {
    const name = (event: string) => sql.ref(`${table}_answer_${event}`);
    await sql`create trigger ${name('insert')} after insert on ${sql.table(table)} begin
      ${stale('new.submerchant_id')} end`.execute(db);
    await sql`create trigger ${name('update')} after update on ${sql.table(table)} begin
      ${stale('old.submerchant_id, new.submerchant_id')} end`.execute(db);
    await sql`create trigger ${name('delete')} after delete on ${sql.table(table)} begin
      ${stale('old.submerchant_id')} end`.execute(db);
  }
}

/**
 * Deferred to the commit: by then every writer holds the submerchant's row lock (store.ts `lockSubmerchant`), so
 * the answer's row is always locked after it, never before (a first status change is written before that lock),
 * and only for the commit's instant.
 */
async function postgresTriggers(db: Kysely<unknown>) {
  await sql`create function vigia_submerchant_answer_create() returns trigger language plpgsql as $$
    begin
      insert into submerchant_answers (submerchant_id, merchant_id) values (new.id, new.merchant_id);
      return null;
    end $$`.execute(db);
  await sql`create trigger submerchant_answers_create after insert on submerchants
    for each row execute function vigia_submerchant_answer_create()`.execute(db);
  // One function per key: plpgsql resolves every field a statement names, taken branch or not.
  const staleFunction = (name: string, ids: string) =>
    sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        update submerchant_answers set version = version + 1, ${sql.raw(ANSWER_COLUMNS)}
          where submerchant_id in (${sql.raw(ids)});
        return null;
      end $$`.execute(db);
  // OLD is null on an insert and NEW on a delete: `in` matches the other.
  await staleFunction('vigia_submerchant_answer_stale_own', 'new.id');
  await staleFunction('vigia_submerchant_answer_stale_attached', 'old.submerchant_id, new.submerchant_id');
  await sql`create constraint trigger submerchant_answers_own after update on submerchants
    deferrable initially deferred for each row execute function vigia_submerchant_answer_stale_own()`.execute(
    db,
  );
  for (const table of ATTACHED) {
    await sql`create constraint trigger ${sql.ref(`${table}_answer`)} after insert or update or delete
      on ${sql.table(table)} deferrable initially deferred
      for each row execute function vigia_submerchant_answer_stale_attached()`.execute(db);
  }
}

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('submerchant_answers')
      .addColumn('submerchant_id', 'text', (col) =>
        col.primaryKey().references('submerchants.id').onDelete('cascade'),
      )
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('format', 'text')
      .addColumn('head', 'text')
      .addColumn('status_history', 'text')
      .addColumn('requirements_input', 'text')
      .addColumn('valid_from', 'text')
      .addColumn('stale_after', 'text')
      .execute();
    await sql`insert into submerchant_answers (submerchant_id, merchant_id)
      select id, merchant_id from submerchants`.execute(db);
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteTriggers(db);
    else await postgresTriggers(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`drop trigger submerchant_answers_create`.execute(db);
      await sql`drop trigger submerchant_answers_own`.execute(db);
      for (const table of ATTACHED) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`drop trigger ${sql.ref(`${table}_answer_${event}`)}`.execute(db);
        }
      }
    } else {
      await sql`drop trigger submerchant_answers_create on submerchants`.execute(db);
      await sql`drop trigger submerchant_answers_own on submerchants`.execute(db);
      for (const table of ATTACHED) {
        await sql`drop trigger ${sql.ref(`${table}_answer`)} on ${sql.table(table)}`.execute(db);
      }
      await sql`drop function vigia_submerchant_answer_create()`.execute(db);
      await sql`drop function vigia_submerchant_answer_stale_own()`.execute(db);
      await sql`drop function vigia_submerchant_answer_stale_attached()`.execute(db);
    }
    await db.schema.dropTable('submerchant_answers').execute();
  },
};

export default migration;

import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  PostgresAdapter,
  type SelectQueryBuilder,
  type SqlBool,
  type UpdateObject,
} from 'kysely';
import { prepared } from './prepared.js';

/**
 * Taking rows off a shared queue: each claimed row is given to exactly one claimer, however many claim at once
 * (workers of one process or of many sharing the database). One statement on both dialects, compiled once
 * (`prepared`, db/prepared.ts): on PostgreSQL the candidates are locked with `FOR UPDATE SKIP LOCKED` (concurrent
 * claimers skip each other's rows instead of waiting for them) and marked in the same statement; SQLite runs one
 * writer at a time and has no row locks, so one conditional UPDATE suffices. Being one statement, a claim also
 * runs inside a caller's transaction (the delivery worker records outcomes and claims in one commit).
 */
export interface RowClaim<DB, TB extends keyof DB & string, Name extends string> {
  /** A table whose rows have a text `id`. */
  table: TB;
  /**
   * The ids of the rows to claim, as many as wanted at most, built with `value(name)` for every value (see
   * `prepared`). It may read a snapshot that another claimer's commit has since made stale: `where` guards the rows.
   */
  candidates: (db: Kysely<DB>, value: <T = string>(name: Name) => T) => Expression<{ id: string }>;
  /**
   * Whether a row may be claimed now, on its own columns (`candidates` must imply it; `set` must make it false, or
   * the row is claimed again). PostgreSQL checks it again on the newest version of each candidate it locks, so a
   * row that another claimer took after this claim's snapshot is left to it.
   */
  where: (eb: ExpressionBuilder<DB, TB>, value: <T = string>(name: Name) => T) => Expression<SqlBool>;
  /** What marks a row as claimed (who holds it, until when). */
  set: (value: <T = string>(name: Name) => T) => UpdateObject<DB, TB>;
}

// The statements below work for any caller's table; its own schema types the claim it passes in.
type AnyTables = Record<string, { id: string }>;
type AnyClaim = {
  table: string;
  // A select query, as every caller passes one (Kysely types `in` operands by that).
  candidates: (
    db: Kysely<AnyTables>,
    value: (name: string) => unknown,
  ) => SelectQueryBuilder<AnyTables, string, { id: string }>;
  where: (eb: ExpressionBuilder<AnyTables, string>, value: (name: string) => unknown) => Expression<SqlBool>;
  set: (value: (name: string) => unknown) => UpdateObject<AnyTables, string>;
};

/** The claim as one prepared statement; running it with a call's values returns the ids it claimed. */
export function preparedClaim<DB, TB extends keyof DB & string, Name extends string>(
  claim: RowClaim<DB, TB, Name>,
): (db: Kysely<DB>, values: Record<Name, unknown>) => Promise<string[]> {
  const any = claim as unknown as AnyClaim;
  const statement = prepared<AnyTables, string, { id: string }>((db, value) => {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
      // One statement reads the candidates and marks them: nothing can take them in between, so they need no
      // second check (which would also lead SQLite to scan the table's index instead of looking the ids up).
      return db
        .updateTable(any.table)
        .set(any.set(value))
        .where('id', 'in', any.candidates(db, value))
        .returning('id');
    }
    // The locking SELECT in a CTE runs once, before the UPDATE marks what it locked.
    return db
      .with('locked', (locker) =>
        locker
          .selectFrom(any.table)
          .select(`${any.table}.id`)
          .where(`${any.table}.id`, 'in', any.candidates(db, value))
          .where((eb) => any.where(eb, value))
          .forUpdate()
          .skipLocked(),
      )
      .updateTable(any.table)
      .set(any.set(value))
      .where('id', 'in', (eb) => eb.selectFrom('locked').select('locked.id'))
      .returning('id');
  });
  return async (db, values) => {
    const { rows } = await statement(db as unknown as Kysely<AnyTables>, values);
    return rows.map((row) => row.id);
  };
}

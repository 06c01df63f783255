import type {
  Expression,
  ExpressionBuilder,
  Kysely,
  SelectQueryBuilder,
  SqlBool,
  UpdateObject,
} from 'kysely';
import type { Store } from './connect.js';

/**
 * Taking rows off a shared queue: each claimed row is given to exactly one claimer, however many claim at once
 * (workers of one process or of many sharing the database). PostgreSQL claims with `SELECT … FOR UPDATE SKIP
 * LOCKED` (concurrent claimers skip each other's rows instead of waiting for them), SQLite with one
 * conditional UPDATE (SQLite runs one writer at a time, and has no row locks).
 */
export interface RowClaim<DB, TB extends keyof DB & string> {
  /** A table whose rows have a text `id`. */
  table: TB;
  /**
   * The ids of the rows to claim, as many as wanted at most. It may read a snapshot that another claimer's
   * commit has since made stale: `where` is what guards the rows.
   */
  candidates: (db: Kysely<DB>) => Expression<{ id: string }>;
  /**
   * Whether a row may be claimed now, on its own columns (`candidates` must imply it; `set` must make it false, or
   * the row is claimed again). PostgreSQL checks it again on the newest version of each candidate it locks, so a
   * row that another claimer took after this claim's snapshot is left to it.
   */
  where: (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>;
  /** What marks a row as claimed (who holds it, until when). */
  set: UpdateObject<DB, TB>;
}

// The queries below work for any caller's table; its own schema types the claim it passes in.
type AnyTables = Record<string, { id: string }>;
type AnyClaim = {
  table: string;
  // A select query, as every caller passes one (Kysely types `in` operands by that).
  candidates: (db: Kysely<AnyTables>) => SelectQueryBuilder<AnyTables, string, { id: string }>;
  where: (eb: ExpressionBuilder<AnyTables, string>) => Expression<SqlBool>;
  set: UpdateObject<AnyTables, string>;
};

async function claimWithRowLocks(db: Kysely<AnyTables>, claim: AnyClaim): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom(claim.table)
      .select(`${claim.table}.id`)
      .where(`${claim.table}.id`, 'in', claim.candidates(trx))
      .where(claim.where)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    await trx.updateTable(claim.table).set(claim.set).where('id', 'in', ids).execute();
    return ids;
  });
}

async function claimWithOneUpdate(db: Kysely<AnyTables>, claim: AnyClaim): Promise<string[]> {
  const rows = await db
    .updateTable(claim.table)
    .set(claim.set)
    // One statement reads the candidates and marks them: nothing can take them in between, so they need no
    // second check (which would also lead SQLite to scan the table's index instead of looking the ids up).
    .where('id', 'in', claim.candidates(db))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Claims the rows `claim.candidates` names (those still matching `claim.where`); returns their ids. */
export function claimRows<DB, TB extends keyof DB & string>(
  store: Store<DB>,
  claim: RowClaim<DB, TB>,
): Promise<string[]> {
  const db = store.db as unknown as Kysely<AnyTables>;
  const anyClaim = claim as unknown as AnyClaim;
  return store.dialect === 'postgres' ? claimWithRowLocks(db, anyClaim) : claimWithOneUpdate(db, anyClaim);
}

import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
  type UpdateObject,
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
  /** The rows that may be claimed now; `set` must make it false for a claimed row, or it is claimed again. */
  where: (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>;
  /** Rows are claimed in ascending order of this column. */
  orderBy: keyof DB[TB] & string;
  limit: number;
  /** What marks a row as claimed (who holds it, until when). */
  set: UpdateObject<DB, TB>;
}

// The queries below work for any caller's table; its own schema types the claim it passes in.
type AnyTables = Record<string, { id: string }>;
type AnyClaim = {
  table: string;
  where: (eb: ExpressionBuilder<AnyTables, string>) => Expression<SqlBool>;
  orderBy: string;
  limit: number;
  set: UpdateObject<AnyTables, string>;
};

function candidates(db: Kysely<AnyTables>, claim: AnyClaim) {
  return db
    .selectFrom(claim.table)
    .select(`${claim.table}.id`)
    .where(claim.where)
    .orderBy(sql.ref(`${claim.table}.${claim.orderBy}`))
    .limit(claim.limit);
}

async function claimWithRowLocks(db: Kysely<AnyTables>, claim: AnyClaim): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await candidates(trx, claim).forUpdate().skipLocked().execute();
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
    .where('id', 'in', candidates(db, claim))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Claims up to `claim.limit` rows matching `claim.where`, first in `claim.orderBy` order; returns their ids. */
export function claimRows<DB, TB extends keyof DB & string>(
  store: Store<DB>,
  claim: RowClaim<DB, TB>,
): Promise<string[]> {
  const db = store.db as unknown as Kysely<AnyTables>;
  const anyClaim = claim as unknown as AnyClaim;
  return store.dialect === 'postgres' ? claimWithRowLocks(db, anyClaim) : claimWithOneUpdate(db, anyClaim);
}

import { type Kysely, PostgresAdapter } from 'kysely';
import type { Dialect } from './connect.js';

/**
 * Which database a Kysely instance (or transaction) talks to. The one place outside db/'s own modules that asks:
 * code that writes one statement per dialect branches on this (test/architecture/imports.test.ts holds it).
 */
export function dialectOf<DB>(db: Kysely<DB>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

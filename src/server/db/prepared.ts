import {
  type Compilable,
  CompiledQuery,
  type Kysely,
  type QueryResult,
  type Selectable,
  SqliteAdapter,
} from 'kysely';
import { nameStatement, queryPool, querySharedRead, readNow } from './connect.js';

/**
 * A statement whose text never changes, only its values: built and compiled once per dialect, then run with
 * each call's values. Building and compiling a Kysely query is a large share of a hot write route's CPU
 * (bench/README.md, "Figures behind code comments";
 * docs/decisions/prepared-statements-for-hot-writes-fixed-count-benchmark.md), and SQL written by hand would
 * fork per dialect. `build` marks every value with `value(name)`; a literal written in `build` would be
 * frozen into every call, so compiling refuses any parameter that is not a marked value. `sharedRead`: a read that
 * requests share (db/batched-read.ts), sent on PostgreSQL on the store's connection for them
 * (db/read-connection.ts) instead of the pool.
 */
export function prepared<DB, Name extends string, Row>(
  build: (db: Kysely<DB>, value: <T = string>(name: Name) => T) => Compilable<Row>,
  { sharedRead = false } = {},
): Prepared<DB, Name, Row> {
  const statements = new Map<boolean, { sql: string; names: Name[] }>();
  const marker = '\u0000prepared:';
  const compiled = (db: Kysely<DB>) => {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    let statement = statements.get(sqlite);
    if (!statement) {
      const query = build(db, <T>(name: Name) => `${marker}${name}` as T).compile();
      const names = query.parameters.map((parameter) => {
        if (typeof parameter !== 'string' || !parameter.startsWith(marker))
          throw new Error(`prepared statement with an unmarked value: ${query.sql}`);
        return parameter.slice(marker.length) as Name;
      });
      statement = { sql: query.sql, names };
      statements.set(sqlite, statement);
      // PostgreSQL then parses and plans it once per connection (a named prepared statement, connect.ts).
      if (!sqlite) nameStatement(query.sql);
    }
    return statement;
  };
  const run = async (db: Kysely<DB>, values: Record<Name, unknown>) => {
    const statement = compiled(db);
    const parameters = statement.names.map((name) => values[name]);
    return (
      readNow<Row>(db, statement.sql, parameters) ??
      (sharedRead ? querySharedRead<Row>(db, statement.sql, parameters) : null) ??
      queryPool<Row>(db, statement.sql, parameters) ??
      db.executeQuery<Row>(CompiledQuery.raw(statement.sql, parameters))
    );
  };
  return Object.assign(run, { text: (db: Kysely<DB>) => compiled(db).sql });
}

/** A prepared statement: run with a call's values; `text` is its SQL on `db`'s dialect (e.g. to version what it writes). */
export type Prepared<DB, Name extends string, Row> = ((
  db: Kysely<DB>,
  values: Record<Name, unknown>,
) => Promise<QueryResult<Row>>) & { text: (db: Kysely<DB>) => string };

/**
 * An INSERT of one whole row that a hot route sends on every request (a fraud session, a card token), prepared as
 * above and returning nothing (the caller has the row it wrote): one round trip, and as little for the database
 * to parse and send back as it allows. Every column is given, null for none: the statement's columns are those
 * of the first row.
 */
export function preparedInsert<DB, T extends keyof DB & string>(table: T) {
  let columns: string[] = [];
  const insert = prepared<DB, string, unknown>((db, value) =>
    // `never`: Kysely cannot type the row of a table chosen by a type parameter (the signature below does).
    db
      .insertInto(table)
      .values(Object.fromEntries(columns.map((column) => [column, value(column)])) as never),
  );
  return async (db: Kysely<DB>, row: Selectable<DB[T]>): Promise<void> => {
    const values = row as Record<string, unknown>;
    if (columns.length === 0) columns = Object.keys(values);
    await insert(db, values);
  };
}

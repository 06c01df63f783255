import { type Compilable, CompiledQuery, type Kysely, type QueryResult, SqliteAdapter } from 'kysely';

/**
 * A statement whose text never changes, only its values: built and compiled once per dialect, then run with each
 * call's values. Building and compiling a Kysely query costs a hot write route about a tenth of its CPU (issue 14),
 * and SQL written by hand would fork per dialect. `build` marks every value with `value(name)`; a literal written
 * in `build` would be frozen into every call, so compiling refuses any parameter that is not a marked value.
 */
export function prepared<DB, Name extends string, Row>(
  build: (db: Kysely<DB>, value: <T = string>(name: Name) => T) => Compilable<Row>,
): (db: Kysely<DB>, values: Record<Name, unknown>) => Promise<QueryResult<Row>> {
  const statements = new Map<boolean, { sql: string; names: Name[] }>();
  const marker = '\u0000prepared:';
  return async (db, values) => {
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
    }
    return db.executeQuery<Row>(
      CompiledQuery.raw(
        statement.sql,
        statement.names.map((name) => values[name]),
      ),
    );
  };
}

import { type Compilable, CompiledQuery, type DialectAdapter, type Kysely, type QueryResult } from 'kysely';

const PLACEHOLDER = '\u0000vigia-value:';

type Slot = { value: string } | { constant: unknown };

/**
 * A hot path's statement whose shape does not change from call to call, only its values: Kysely builds and
 * compiles it once per dialect and shape, then each call sends that SQL text with the values in their
 * places. Building and compiling a statement with subqueries cost the charge path more CPU than running it
 * (bench/README.md, charge-create profile). `build` gets a placeholder for each value and must hand them to Kysely
 * untouched, as bound values (no arithmetic on them, no `sql.lit`); what it builds may depend on `shape` only
 * (a value a shape does not use may be absent).
 */
export function compiledOnce<DB, Values extends Record<string, unknown>, Row>(
  build: (db: Kysely<DB>, values: Required<Values>, shape: string) => Compilable<Row>,
): (db: Kysely<DB>, values: Values, shape?: string) => Promise<QueryResult<Row>> {
  // By the dialect's adapter, which a transaction shares with its database (the SQL is the dialect's).
  const compiled = new WeakMap<DialectAdapter, Map<string, { sql: string; slots: Slot[] }>>();
  return (db, values, shape = '') => {
    const adapter = db.getExecutor().adapter;
    let shapes = compiled.get(adapter);
    if (!shapes) {
      shapes = new Map();
      compiled.set(adapter, shapes);
    }
    let statement = shapes.get(shape);
    if (!statement) {
      const placeholders = Object.fromEntries(Object.keys(values).map((key) => [key, PLACEHOLDER + key]));
      const query = build(db, placeholders as Required<Values>, shape).compile();
      const slots = query.parameters.map((parameter): Slot => {
        if (typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER)) {
          return { value: parameter.slice(PLACEHOLDER.length) };
        }
        if (typeof parameter === 'string' && parameter.includes(PLACEHOLDER)) {
          throw new Error(`compiledOnce: a value was changed on its way into the statement: ${parameter}`);
        }
        return { constant: parameter };
      });
      statement = { sql: query.sql, slots };
      shapes.set(shape, statement);
    }
    const parameters = statement.slots.map((slot) => ('value' in slot ? values[slot.value] : slot.constant));
    return db.executeQuery<Row>(CompiledQuery.raw(statement.sql, parameters));
  };
}

import SQLite from 'better-sqlite3';
import pg from 'pg';

/** One SQL statement with `?` placeholders (numbered `$n` for PostgreSQL here). */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The least a correct server must do for a write: the same rows, durably, through hand-written prepared
 * statements, with nothing else (no query builder, no auth, no validation). Reference servers answer from it.
 * SQLite: its own connection in WAL with `synchronous = FULL` and one commit per request (what a plain server
 * does); PostgreSQL: a pool of 10 with named prepared statements, the server's default durability.
 */
export interface ReferenceStore {
  /** One statement alone, or several in one transaction; answers how many rows each changed. */
  write(statements: Statement[]): Promise<number[]>;
  close(): Promise<void>;
}

export function openReferenceStore(databaseUrl: string): ReferenceStore {
  return databaseUrl.startsWith('file:')
    ? sqliteReference(databaseUrl.slice('file:'.length))
    : pgReference(databaseUrl);
}

function sqliteReference(file: string): ReferenceStore {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = FULL');
  const prepared = new Map<string, SQLite.Statement>();
  const run = ({ text, values }: Statement) => {
    const statement = prepared.get(text) ?? database.prepare(text);
    prepared.set(text, statement);
    return statement.run(values).changes;
  };
  const inTransaction = database.transaction((statements: Statement[]) => statements.map(run));
  return {
    write: async (statements) =>
      statements.length === 1 ? [run(statements[0]!)] : inTransaction(statements),
    close: async () => void database.close(),
  };
}

function pgReference(url: string): ReferenceStore {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const names = new Map<string, { name: string; text: string }>();
  const named = ({ text, values }: Statement) => {
    let query = names.get(text);
    if (!query) {
      let n = 0;
      query = { name: `reference_${names.size}`, text: text.replace(/\?/g, () => `$${++n}`) };
      names.set(text, query);
    }
    return { ...query, values };
  };
  return {
    async write(statements) {
      if (statements.length === 1) return [(await pool.query(named(statements[0]!))).rowCount ?? 0];
      const client = await pool.connect();
      try {
        await client.query('begin');
        const changed: number[] = [];
        for (const statement of statements)
          changed.push((await client.query(named(statement))).rowCount ?? 0);
        await client.query('commit');
        return changed;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

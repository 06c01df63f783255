import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
} from 'kysely';
import { BoundedCache } from '../core/bounded-cache.js';

/**
 * Group commit for SQLite with `synchronous = FULL`, where every COMMIT waits for the disk (~0.2–0.3 ms here)
 * and one connection serializes all writers. Write transactions that arrive together share one COMMIT: the first
 * opens a shared transaction (`BEGIN IMMEDIATE`), each request's work runs in its own savepoint (released on
 * success, rolled back on failure, so one failing request undoes only its own work), and the shared COMMIT runs
 * as soon as the transactions already waiting for the connection have had their turn. Each request's commit
 * resolves only after that COMMIT has reached the disk, so nothing is answered before it is durable.
 *
 * A write outside an explicit transaction (a single INSERT) is treated as a one-statement transaction.
 * Reads outside a transaction run at once, and may see a group's work a few hundred microseconds before its
 * COMMIT (the same connection): no request that wrote it has been answered yet.
 */
const MEMBER = 'vigia_group_member';

class FifoLock {
  #held = false;
  #waiting: (() => void)[] = [];

  get held(): boolean {
    return this.#held;
  }

  async acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitStats {
  /** Shared COMMITs run so far. */
  commits: number;
  /** Transactions (and single writes) committed through them. */
  members: number;
}

export class GroupCommitDriver implements Driver {
  readonly stats: GroupCommitStats = { commits: 0, members: 0 };
  readonly #lock = new FifoLock();
  readonly #statements: BoundedCache<string, SQLite.Statement>;
  /** Those waiting for the open shared transaction's COMMIT; null when none is open. */
  #group: Waiter[] | null = null;
  #flushQueued = false;

  constructor(readonly database: SQLite.Database) {
    // Kysely prepares every query anew; compiling the SQL costs as much as running a simple query.
    this.#statements = new BoundedCache(500);
  }

  async init(): Promise<void> {}

  prepare(text: string): SQLite.Statement {
    return this.#statements.getOrSet(text, () => this.database.prepare(text));
  }

  run(text: string): void {
    this.prepare(text).run();
  }

  /**
   * Runs a read-only statement at once when the connection is free (no request's transaction holds it), as a
   * turn at it would, and sees what such a turn sees; undefined when it is not free, or the statement writes.
   * Saves a hot read route the turn's promises and Kysely's executor (bench/README.md, "The wallet read").
   */
  readNow<R>(text: string, parameters: unknown[]): QueryResult<R> | undefined {
    if (this.#lock.held) return undefined;
    const statement = this.prepare(text);
    return statement.readonly ? execute<R>(statement, parameters) : undefined;
  }

  releaseLock(): void {
    this.#lock.release();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return new Lease(this);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.enterMember();
    (connection as Lease).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    lease.inTransaction = false;
    this.run(`release ${MEMBER}`);
    await this.awaitSharedCommit(lease);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // A failed shared commit has already released the connection and failed every member.
    if (lease.released) return;
    lease.inTransaction = false;
    this.undoMember();
  }

  // Kysely's savepoints inside a transaction (`trx.savepoint(name)`) nest inside the member's own.
  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.#savepointCommand(connection, 'savepoint', name);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.#savepointCommand(connection, 'rollback to', name);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.#savepointCommand(connection, 'release', name);
  }

  async #savepointCommand(connection: DatabaseConnection, command: string, name: string) {
    if ((connection as Lease).released) throw new Error('The connection was already released.');
    this.run(`${command} "${name.replaceAll('"', '""')}"`);
  }

  async destroy(): Promise<void> {
    await this.#lock.acquire();
    this.#commitGroup();
    this.database.close();
  }

  /** Opens the shared transaction if none is open, then this member's savepoint. */
  enterMember(): void {
    if (!this.#group) {
      this.run('begin immediate');
      this.#group = [];
    }
    this.run(`savepoint ${MEMBER}`);
  }

  /** Undoes this member's work only; if SQLite rolled back the whole shared transaction, fails its members. */
  undoMember(): void {
    if (this.database.inTransaction) {
      this.run(`rollback to ${MEMBER}`);
      this.run(`release ${MEMBER}`);
      return;
    }
    const lost = this.#group ?? [];
    this.#group = null;
    const error = new Error(
      'The shared transaction was rolled back by the database; nothing of it was kept.',
    );
    for (const waiter of lost) waiter.reject(error);
  }

  /** Hands the connection to the next in line and resolves once the shared COMMIT is on disk. */
  async awaitSharedCommit(lease: Lease): Promise<void> {
    const group = this.#group;
    if (!group)
      throw new Error('The shared transaction was rolled back by the database; nothing of it was kept.');
    const committed = new Promise<void>((resolve, reject) => group.push({ resolve, reject }));
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      // After this turn of the event loop: every request read in it reaches its own write first and joins.
      setImmediate(() => void this.#flushWhenItsTurn());
    }
    lease.release();
    await committed;
  }

  /** Also queued behind the transactions already waiting for the connection, so they join the group first. */
  async #flushWhenItsTurn(): Promise<void> {
    await this.#lock.acquire();
    this.#flushQueued = false;
    try {
      this.#commitGroup();
    } finally {
      this.#lock.release();
    }
  }

  #commitGroup(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = null;
    try {
      this.run('commit');
    } catch (error) {
      if (this.database.inTransaction) this.run('rollback');
      for (const waiter of group) waiter.reject(error);
      return;
    }
    this.stats.commits += 1;
    this.stats.members += group.length;
    for (const waiter of group) waiter.resolve();
  }
}

/** One turn at the single SQLite connection, from `acquireConnection` to its release. */
class Lease implements DatabaseConnection {
  inTransaction = false;
  released = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.driver.releaseLock();
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.driver.prepare(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    if (this.inTransaction || statement.readonly) return execute<R>(statement, parameters);
    // A write on its own: a one-statement member of the group.
    this.driver.enterMember();
    let result: QueryResult<R>;
    try {
      result = execute<R>(statement, parameters);
    } catch (error) {
      this.driver.undoMember();
      throw error;
    }
    this.driver.run(`release ${MEMBER}`);
    await this.driver.awaitSharedCommit(this);
    return result;
  }

  // biome-ignore lint/correctness/useYield: SQLite rows are read whole; the service streams nothing.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on SQLite here.');
  }
}

function execute<R>(statement: SQLite.Statement, parameters: unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it does not, so its migrator would apply
 * migrations statement by statement: a crash mid-way would leave half a schema. Saying so makes it wrap the
 * pending migrations in one transaction, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect with the group-commit driver in place of its own, and transactional migrations. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly driver: GroupCommitDriver;

  constructor(database: SQLite.Database) {
    super({ database: database as never });
    this.driver = new GroupCommitDriver(database);
  }

  override createDriver(): Driver {
    return this.driver;
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

type Waiter<Row> = { resolve: (row: Row | undefined) => void; reject: (error: unknown) => void };

/** A store's reads: those waiting for the next statement, and whether one is being answered. */
type Reads<Row> = { waiting: Map<string, Waiter<Row>[]>; sending: boolean };

/**
 * Reads of one row by id that arrive together share one statement, as commits share a flush: a read waits for the
 * end of the event loop's turn (`setImmediate`, once the turn's sockets are read), and while a statement is out,
 * for its answer; then every read waiting is sent in one statement. At most one statement is out per store, so
 * the busier the route, the more reads each carries. A read never joins a statement already sent, so each answer
 * was read after its request arrived and shows every change committed before that: fresh, not cached
 * (docs/decisions/wallet-reads-that-arrive-together-share-one-statement.md). For a store's own instance only: a
 * transaction's reads must see its own writes, so they go through it.
 */
export function batchedById<Db extends object, Row extends { id: string }>(
  readMany: (db: Db, ids: string[]) => Promise<Row[]>,
): (db: Db, id: string) => Promise<Row | undefined> {
  const stores = new WeakMap<Db, Reads<Row>>();
  const send = async (db: Db, reads: Reads<Row>) => {
    const batch = reads.waiting;
    reads.waiting = new Map();
    reads.sending = true;
    try {
      const rows = new Map((await readMany(db, [...batch.keys()])).map((row) => [row.id, row]));
      for (const [id, waiters] of batch) for (const waiter of waiters) waiter.resolve(rows.get(id));
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    } finally {
      reads.sending = false;
      if (reads.waiting.size > 0) setImmediate(() => void send(db, reads));
    }
  };
  return (db, id) =>
    new Promise((resolve, reject) => {
      let reads = stores.get(db);
      if (!reads) {
        reads = { waiting: new Map(), sending: false };
        stores.set(db, reads);
      }
      const started = reads;
      if (!started.sending && started.waiting.size === 0) setImmediate(() => void send(db, started));
      const waiters = started.waiting.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else started.waiting.set(id, [{ resolve, reject }]);
    });
}

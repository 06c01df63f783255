import type pg from 'pg';

/**
 * A PostgreSQL connection of its own for the reads that many requests share (db/batched-read.ts): such a read
 * is one statement at a time per store, so one connection is all it needs. Outside the pool it takes no pool
 * turn per statement (a checkout and a release, the pool's queue, a client picked afresh each time), waits for
 * no transaction holding every pooled connection, and always reaches the same backend, whose plan and pages stay
 * warm (docs/decisions/shared-reads-have-a-connection-of-their-own.md). Opened on first use; a lost connection
 * fails the statement it carried (answered 503, like the pool's) and the next statement opens a new one.
 */
export class ReadConnection {
  private client: pg.Client | null = null;
  private closed = false;

  constructor(private readonly open: () => pg.Client) {}

  /** Runs `text` with `values` as the named prepared statement `name` (parsed and planned once per connection). */
  query(name: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.closed) return Promise.reject(new Error('Client was closed and is not queryable'));
    return (this.client ?? this.connect()).query({ name, text, values });
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private connect(): pg.Client {
    const client = this.open();
    this.client = client;
    // The statements queued on it fail with the loss (pg errors them); the connection is dropped, and ended in case
    // its socket outlived the error.
    const drop = () => {
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
    };
    client.on('error', drop);
    client.on('end', drop);
    client.connect().catch(drop);
    return client;
  }
}

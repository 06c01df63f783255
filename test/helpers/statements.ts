import pg from 'pg';
import { vi } from 'vitest';

/** A statement a PostgreSQL connection sent: its text, and its name when sent as a named prepared statement. */
export interface Sent {
  text: string;
  name?: string;
}

/**
 * Records every statement the app's PostgreSQL connections send from now on (the database still runs them);
 * `vi.restoreAllMocks()` stops it.
 */
export function recordStatements(): Sent[] {
  const sent: Sent[] = [];
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [config] = args as [string | { text: string; name?: string }];
    sent.push(typeof config === 'string' ? { text: config } : config);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  return sent;
}

/** A UNIQUE constraint refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Socket errors of a connection to PostgreSQL that could not be opened or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs of a database that is not there to answer: 57P01 admin shutdown, 57P02 crash shutdown,
 * 57P03 cannot connect now (starting up, recovering), 57014 a statement cancelled by its timeout; class 53
 * (too many connections, disk full, out of memory) and class 08 (connection exceptions) by prefix below.
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '57014']);

/** What node-postgres says, with no code, when a connection ends or never opens. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

/**
 * SQLite: the file locked past the busy timeout (SQLITE_BUSY*), the disk full (SQLITE_FULL) or failing
 * (SQLITE_IOERR*). The write was rolled back; it may succeed once the lock, or the space, is freed.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|FULL|IOERR|LOCKED)/;

/**
 * The database could not do the work now, through no fault of the request: answered 503 with Retry-After, never
 * 500 (docs/decisions/database-outages.md). Follows `cause` a few levels, where drivers wrap the original.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
      if (/^(08|53)[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.includes(text))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

import { describe, expect, test } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/server/db/errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: what is answered 503 rather than 500', () => {
  test.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['the pool timing out a connection', new Error('timeout exceeded when trying to connect')],
    ['a client broken earlier', new Error('Client has encountered a connection error and is not queryable')],
    ['PostgreSQL shutting down', withCode('57P01')],
    ['PostgreSQL crash-restarting', withCode('57P02')],
    ['PostgreSQL starting up', withCode('57P03')],
    ['a connection exception', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['a statement timeout', withCode('57014')],
    ['SQLite locked past its busy timeout', withCode('SQLITE_BUSY')],
    ['SQLite with its disk full', withCode('SQLITE_FULL')],
    ['SQLite failing to write', withCode('SQLITE_IOERR_WRITE')],
    ['a wrapped refusal', Object.assign(new Error('query failed'), { cause: withCode('ECONNREFUSED') })],
  ])('%s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', null],
  ])('not %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

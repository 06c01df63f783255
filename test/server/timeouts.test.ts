import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseUrl, startApp } from '../helpers/app.js';

describe.each(DIALECTS)('timeouts and probes on %s (issue 12 item 13)', (dialect) => {
  it('closes a connection that sends nothing instead of holding it forever', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect), { config: { requestTimeoutMs: 400 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    const outcome = await Promise.race([
      new Promise((resolve) => socket.on('close', () => resolve('closed by the server'))),
      new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5000)),
    ]);
    socket.destroy();
    expect(outcome).toBe('closed by the server');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('/health answers without the database; /ready asks it', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    await app.store.close();
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toEqual({ status: 'ok', database: dialect });
    expect((await app.inject({ method: 'GET', url: '/ready' })).json().error.code).toBe(
      'DATABASE_UNAVAILABLE',
    );
  });
});

// PostgreSQL's own bounds (SQLite has no statement timeout or connection pool to set).
describe('timeouts on postgres', () => {
  it('bounds every PostgreSQL statement and connection wait', async () => {
    const app = await startApp(await freshDatabaseUrl('postgres'));
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(app.store.db);
    expect(rows[0]?.statement_timeout).toBe('15s');
    expect(app.store.pgPool?.options.connectionTimeoutMillis).toBe(5000);
  });
});

import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { DIALECTS, freshDatabaseUrl, startApp, testConfig } from '../helpers/app.js';

describe.each(DIALECTS)('service on %s', (dialect) => {
  it('reports health and the database kind', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ status: 'ok', database: dialect });
  });

  it('answers 503 from /ready when the database is gone (while /health, liveness, stays 200)', async () => {
    const app = await buildApp(testConfig(await freshDatabaseUrl(dialect)));
    await app.store.close();
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('DATABASE_UNAVAILABLE');
  });

  it('migrates once: a second start on the same database applies nothing and keeps the data', async () => {
    const url = await freshDatabaseUrl(dialect);
    const first = await buildApp(testConfig(url));
    await first.store.db
      .insertInto('operator_keys')
      .values({ id: crypto.randomUUID(), key_hash: 'a'.repeat(64), created_at: new Date().toISOString() })
      .execute();
    await first.close();
    const second = await startApp(url);
    const rows = await second.store.db.selectFrom('operator_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('finishes in-flight requests when closing', async () => {
    const app = await buildApp(testConfig(await freshDatabaseUrl(dialect)));
    app.get('/slow', { config: { auth: 'none' } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { message: 'done', data: {} };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const request = http.get({ host: '127.0.0.1', port, path: '/slow', agent: false });
    const responsePromise = once(request, 'response');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = app.close();
    const [response] = (await responsePromise) as [http.IncomingMessage];
    let body = '';
    for await (const chunk of response) body += chunk;
    await closing;
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(body).message).toBe('done');
  });
});

describe('SQLite store', () => {
  it('runs in WAL mode with foreign keys on and a busy timeout', async () => {
    const url = await freshDatabaseUrl('sqlite');
    const app = await startApp(url);
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(app.store.db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
    expect(fs.existsSync(url.slice('file:'.length))).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the routes, and a reference page', async () => {
    const app = await startApp(await freshDatabaseUrl('sqlite'));
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    const account = document.paths['/v1/account'];
    expect(account.patch.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'allowed_hosts',
    );
    expect(account.get.responses).toHaveProperty('401');
    expect(document.components.securitySchemes.basicAuth).toEqual({ type: 'http', scheme: 'basic' });
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    // It shares the dashboard's origin (issue 23 item 12): its own scripts only, never framed.
    const csp = String(docs.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.headers['content-security-policy']).toBe(csp);
  });
});

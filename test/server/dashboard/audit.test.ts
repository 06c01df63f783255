import { describe, expect, test } from 'vitest';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, signIn } from './helpers.js';

// Issue 23 item 13: a change through the dashboard recorded the merchant, never which of its users made it.
describe.each(DIALECTS)('%s', (dialect) => {
  test('every dashboard change is recorded with its user; owners read their merchant’s, the operator all', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    const other = await createTestMerchant(app, { name: 'Loja Verde' });
    await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    await createUser(app, merchant.id, 'vera@loja.example', 'viewer');
    await createUser(app, other.id, 'x@verde.example', 'owner');
    await createUser(app, null, 'staff@platform.example');
    const [ana, vera, x] = [
      await signIn(app, 'ana@loja.example'),
      await signIn(app, 'vera@loja.example'),
      await signIn(app, 'x@verde.example'),
    ];
    const created = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: ana.change,
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['charge.captured'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const refused = await app.inject({
      method: 'DELETE',
      url: `/dashboard/api/v1/postbacks/endpoints/${id}`,
      headers: vera.change,
    });
    expect(refused.statusCode).toBe(403);
    await app.inject({ method: 'GET', url: '/dashboard/api/v1/charges', headers: ana.change });

    const audit = await app.inject({ method: 'GET', url: '/dashboard/api/audit', headers: ana.change });
    expect(audit.statusCode).toBe(200);
    const rows = audit
      .json()
      .data.map((row: Record<string, unknown>) => [
        row.user_email,
        row.method,
        row.route,
        row.target_id,
        row.status_code,
      ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['ana@loja.example', 'POST', '/dashboard/api/v1/postbacks/endpoints', null, 201],
        ['vera@loja.example', 'DELETE', '/dashboard/api/v1/postbacks/endpoints/:id', id, 403],
      ]),
    );
    expect(rows.some((row: unknown[]) => row[1] === 'GET')).toBe(false);
    const foreign = await app.inject({ method: 'GET', url: '/dashboard/api/audit', headers: x.change });
    expect(foreign.json().data).toEqual([]);
    const operator = await signIn(app, 'staff@platform.example');
    const all = await app.inject({ method: 'GET', url: '/dashboard/api/audit', headers: operator.change });
    expect(all.json().data.length).toBeGreaterThanOrEqual(2);
    const byViewer = await app.inject({ method: 'GET', url: '/dashboard/api/audit', headers: vera.change });
    expect(byViewer.statusCode).toBe(403);
  });
});

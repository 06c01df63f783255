import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { paginate } from '../../../src/server/db/lists.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  TestClock,
} from '../../helpers/app.js';

// The shared list scheme, proved on the operator's merchant list (a real table on both dialects).
describe.each(DIALECTS)('lists on %s', (dialect) => {
  let app: VigiaApp;
  let operator: { authorization: string };
  const clock = new TestClock('2026-03-01T00:00:00.000Z');

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    operator = await createTestOperator(app);
    // 25 merchants, one per day from 2026-03-01 at 23:59:59.999 UTC (the last millisecond of each day).
    for (let day = 1; day <= 25; day++) {
      clock.set(`2026-03-${String(day).padStart(2, '0')}T23:59:59.999Z`);
      await createTestMerchant(app, { name: day % 5 === 0 ? `Acme_Store ${day}` : `Shop ${day}` });
    }
  });

  const list = (query: string) =>
    app.inject({ method: 'GET', url: `/v1/operator/merchants${query}`, headers: operator });

  it('defaults to page 1, 20 per page, newest first, with totalPages = ceil(total / limit)', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toHaveLength(20);
    expect(body.data[0].name).toBe('Acme_Store 25');
    expect(body.data[1].name).toBe('Shop 24');
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 25, totalPages: 2 });
    expect(body.message).toEqual(expect.any(String));
  });

  it('pages through without overlap', async () => {
    const second = (await list('?page=2&limit=20')).json();
    expect(second.data).toHaveLength(5);
    expect(second.data.at(-1).name).toBe('Shop 1');
    const beyond = (await list('?page=9')).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toEqual({ page: 9, limit: 20, total: 25, totalPages: 2 });
  });

  it('accepts limit 1 and 100 and refuses 0, 101 and page 0 with 400', async () => {
    expect((await list('?limit=1')).json().pagination.totalPages).toBe(25);
    expect((await list('?limit=100')).json().data).toHaveLength(25);
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=-1', '?limit=abc', '?page=1.5']) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details[0].field).toMatch(/page|limit/);
    }
  });

  it('filters dates inclusively on created_at in UTC', async () => {
    const body = (await list('?date_from=2026-03-10&date_to=2026-03-12')).json();
    expect(body.data.map((m: { name: string }) => m.name)).toEqual(['Shop 12', 'Shop 11', 'Acme_Store 10']);
    expect((await list('?date_from=2026-03-25')).json().pagination.total).toBe(1);
    expect((await list('?date_to=2026-03-01')).json().pagination.total).toBe(1);
  });

  it('refuses malformed or impossible dates and reversed ranges', async () => {
    for (const query of ['?date_from=2026-3-1', '?date_to=2026-02-30', '?date_from=yesterday']) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.details[0].field).toMatch(/date_/);
    }
    const reversed = await list('?date_from=2026-03-12&date_to=2026-03-10');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('date_from');
  });

  it('searches case-insensitively and treats LIKE wildcards literally', async () => {
    const acme = (await list('?search=ACME')).json();
    expect(acme.pagination.total).toBe(5);
    expect((await list('?search=acme_store')).json().pagination.total).toBe(5);
    expect((await list('?search=e_s')).json().pagination.total).toBe(5);
    expect((await list('?search=%25')).json().pagination.total).toBe(0);
    const byId = acme.data[0].id as string;
    expect((await list(`?search=${byId.slice(0, 8)}`)).json().data[0].id).toBe(byId);
  });

  it('answers the same whether a search is found within the first probe or counted', async () => {
    const page = (probe: number, search: string, pageNumber: number, limit: number) =>
      paginate(
        app.store.db.selectFrom('merchants').selectAll(),
        { page: pageNumber, limit, search },
        { createdAt: 'created_at', id: 'id', search: ['name'], probe },
      );
    for (const [search, pageNumber, limit] of [
      ['shop', 1, 5],
      ['shop', 4, 5],
      ['shop', 9, 5],
      ['acme', 1, 2],
      ['acme', 3, 2],
      ['nothing', 1, 20],
    ] as const) {
      const probed = await page(1_000, search, pageNumber, limit);
      const counted = await page(3, search, pageNumber, limit);
      expect(probed.pagination).toEqual(counted.pagination);
      expect(probed.rows.map((row) => row.id)).toEqual(counted.rows.map((row) => row.id));
    }
    expect((await page(1_000, 'shop', 4, 5)).rows.map((row) => row.name)).toEqual([
      'Shop 6',
      'Shop 4',
      'Shop 3',
      'Shop 2',
      'Shop 1',
    ]);
    expect((await page(3, 'shop', 4, 5)).pagination.total).toBe(20);
  });

  it('refuses a NUL character in search with 400', async () => {
    const response = await list('?search=a%00b');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe('search');
  });

  it('refuses unknown query parameters and a status filter where the resource has none', async () => {
    expect((await list('?sort=name')).statusCode).toBe(400);
    expect((await list('?status=active')).statusCode).toBe(400);
  });
});

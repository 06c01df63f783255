import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, quickCharge, seedCharges, VALID_CNPJ } from '../../helpers/charges.js';

interface ChargeJson {
  id: string;
  status: string;
  created_at: string;
  customer: { name: string };
}

const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const clock = new TestClock('2026-11-19T23:59:59.999Z');
  const ids: Record<string, string> = {};

  const list = async (query: string, who: TestMerchant = merchant) =>
    app.inject({ method: 'GET', url: `/v1/charges${query}`, headers: who.secret });

  const at = async (time: string, name: string, options: Parameters<typeof quickCharge>[2] = {}) => {
    clock.set(time);
    const { response } = await quickCharge(app, merchant, {
      session: false,
      ...options,
      body: {
        customer: { name, email: `${plain(name.split(' ')[0]!)}@example.com`, document: VALID_CNPJ },
        ...options.body,
      },
    });
    expect(response.statusCode).toBe(201);
    return response.json().data.id as string;
  };

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    other = await createTestMerchant(app, { name: 'Other' });
    ids.before = await at('2026-11-19T23:59:59.999Z', 'Ana Before');
    ids.first = await at('2026-11-20T00:00:00.000Z', 'José Primeiro');
    ids.last = await at('2026-11-20T23:59:59.999Z', 'Bruno Last', { card: { number: CARDS.declined } });
    ids.after = await at('2026-11-21T00:00:00.000Z', 'Carla After');
    clock.set('2026-11-21T10:00:00.000Z');
    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${ids.after}/refund`,
      headers: merchant.secret,
    });
    expect(refund.statusCode).toBe(200);
    // The other merchant's charge matches every search below; it must never show.
    clock.set('2026-11-20T12:00:00.000Z');
    await quickCharge(app, other, {
      session: false,
      body: { customer: { name: 'José Primeiro', email: 'jose@example.com', document: VALID_CNPJ } },
    });
  });

  const idsOf = (body: { data: ChargeJson[] }) => body.data.map((charge) => charge.id);

  test('lists newest first with pagination', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(idsOf(body)).toEqual([ids.after, ids.last, ids.first, ids.before]);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
    const page2 = (await list('?limit=3&page=2')).json();
    expect(idsOf(page2)).toEqual([ids.before]);
    expect(page2.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
    expect((await list('?page=3&limit=3')).json().data).toEqual([]);
  });

  test('date_from and date_to are inclusive whole UTC days', async () => {
    expect(idsOf((await list('?date_from=2026-11-20&date_to=2026-11-20')).json())).toEqual([
      ids.last,
      ids.first,
    ]);
    expect(idsOf((await list('?date_from=2026-11-20')).json())).toEqual([ids.after, ids.last, ids.first]);
    expect(idsOf((await list('?date_to=2026-11-19')).json())).toEqual([ids.before]);
    expect(idsOf((await list('?date_from=2026-11-22')).json())).toEqual([]);
  });

  test.each([
    ['captured', ['first', 'before']],
    ['failed', ['last']],
    ['refunded', ['after']],
  ])('status=%s', async (status, expected) => {
    const body = (await list(`?status=${status}`)).json();
    expect(idsOf(body)).toEqual(expected.map((name) => ids[name]));
    expect(body.data.every((charge: ChargeJson) => charge.status === status)).toBe(true);
  });

  test('search matches id, name (any case, accents too), e-mail and document, raw or formatted', async () => {
    const search = async (text: string) => idsOf((await list(`?search=${encodeURIComponent(text)}`)).json());
    expect(await search(ids.first!.slice(0, 13).toUpperCase())).toEqual([ids.first]);
    expect(await search('JOSÉ')).toEqual([ids.first]);
    expect(await search('primeiro')).toEqual([ids.first]);
    expect(await search('bruno@EXAMPLE')).toEqual([ids.last]);
    expect(await search(VALID_CNPJ)).toHaveLength(4);
    expect(await search('11.222.333/0001-81')).toHaveLength(4);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search('nobody')).toEqual([]);
  });

  test('filters combine', async () => {
    const body = (await list('?status=captured&date_from=2026-11-20&search=jos')).json();
    expect(idsOf(body)).toEqual([ids.first]);
    expect(body.pagination.total).toBe(1);
  });

  test.each([
    ['limit=100', 200],
    ['limit=101', 400],
    ['limit=0', 400],
    ['page=0', 400],
    ['limit=abc', 400],
    ['status=waiting', 400],
    ['date_from=2026-02-30', 400],
    ['date_from=20-11-2026', 400],
    ['date_from=2026-11-21&date_to=2026-11-20', 400],
    ['search=', 400],
    ['unknown=1', 400],
  ])('%s → %i', async (query, status) => {
    const response = await list(`?${query}`);
    expect(response.statusCode).toBe(status);
    if (status === 400) expect(response.json().error.code).toBe('VALIDATION_ERROR');
  });

  test('another merchant sees only its own charge', async () => {
    const body = (await list('', other)).json();
    expect(body.pagination.total).toBe(1);
    expect(idsOf(body)).not.toContain(ids.first);
  });

  describe('GET /v1/charges/:id', () => {
    test('reads my charge', async () => {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/charges/${ids.last}`,
        headers: merchant.secret,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        id: ids.last,
        status: 'failed',
        failure_code: 'card_declined',
      });
    });

    test("another merchant's charge and an unknown id are 404; a malformed id is 400", async () => {
      const theirs = await app.inject({
        method: 'GET',
        url: `/v1/charges/${ids.last}`,
        headers: other.secret,
      });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe('NOT_FOUND');
      const unknown = await app.inject({
        method: 'GET',
        url: `/v1/charges/${randomUUID()}`,
        headers: merchant.secret,
      });
      expect(unknown.statusCode).toBe(404);
      const malformed = await app.inject({
        method: 'GET',
        url: '/v1/charges/nope',
        headers: merchant.secret,
      });
      expect(malformed.statusCode).toBe(400);
    });

    test('a public key cannot read charges', async () => {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/charges/${ids.last}`,
        headers: merchant.public,
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('with many charges', () => {
    test('a page of 20 within a date range and a search: right rows, right total, newest first', async () => {
      const busy = await createTestMerchant(app, { name: 'Busy' });
      await seedCharges(app, busy.id, 2000, {
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-06-30T00:00:00.000Z',
      });
      const response = await list(
        '?limit=20&date_from=2026-03-01&date_to=2026-03-31&search=customer%207',
        busy,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.data).toHaveLength(20);
      expect(body.pagination.total).toBe(100);
      for (const charge of body.data as ChargeJson[]) {
        expect(charge.customer.name).toMatch(/^Customer 7\d\d$/);
        expect(charge.created_at >= '2026-03-01' && charge.created_at < '2026-04-01').toBe(true);
      }
      const created = body.data.map((charge: ChargeJson) => charge.created_at);
      expect(created).toEqual([...created].sort().reverse());
    });
  });
});

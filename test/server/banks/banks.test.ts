import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';

describe.each(DIALECTS)('banks on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
    shop = await createTestMerchant(app);
  });

  const get = (url: string, headers: Record<string, string> = shop.secret) =>
    app.inject({ method: 'GET', url, headers });

  it('lists the banks by COMPE code, 20 a page, with the list envelope', async () => {
    const response = await get('/v1/banks');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toHaveLength(20);
    expect(body.data[0]).toEqual({
      compe: '001',
      ispb: '00000000',
      name: 'Banco do Brasil S.A.',
      short_name: 'BCO DO BRASIL S.A.',
      pix_participant: true,
    });
    const codes = body.data.map((bank: { compe: string }) => bank.compe);
    expect(codes).toEqual([...codes].sort());
    expect(body.pagination.total).toBeGreaterThan(400);
    expect(body.pagination.totalPages).toBe(Math.ceil(body.pagination.total / 20));
    expect(response.headers['x-ratelimit-limit']).toBe('200');
  });

  it('pages through every bank once', async () => {
    const first = (await get('/v1/banks?limit=100')).json();
    const seen = new Set<string>();
    for (let page = 1; page <= first.pagination.totalPages; page++) {
      for (const bank of (await get(`/v1/banks?limit=100&page=${page}`)).json().data) seen.add(bank.compe);
    }
    expect(seen.size).toBe(first.pagination.total);
    const past = (await get(`/v1/banks?limit=100&page=${first.pagination.totalPages + 1}`)).json();
    expect(past.data).toEqual([]);
  });

  it('searches names, short names and codes, without regard to case or accents', async () => {
    const itau = (await get('/v1/banks?search=itau%20unibanco')).json().data;
    expect(itau.map((bank: { compe: string }) => bank.compe)).toContain('341');
    const byCode = (await get('/v1/banks?search=260')).json().data;
    expect(byCode.map((bank: { compe: string }) => bank.compe)).toContain('260');
    const byIspb = (await get('/v1/banks?search=60701190')).json().data;
    expect(byIspb).toEqual([expect.objectContaining({ compe: '341', ispb: '60701190' })]);
    const none = (await get('/v1/banks?search=no-such-bank-anywhere')).json();
    expect(none).toMatchObject({ data: [], pagination: { total: 0, totalPages: 0 } });
  });

  it('filters by PIX participation', async () => {
    const pix = (await get('/v1/banks?pix_participant=true&limit=100')).json();
    const notPix = (await get('/v1/banks?pix_participant=false&limit=100')).json();
    const all = (await get('/v1/banks')).json();
    expect(pix.data.every((bank: { pix_participant: boolean }) => bank.pix_participant)).toBe(true);
    expect(notPix.data.every((bank: { pix_participant: boolean }) => !bank.pix_participant)).toBe(true);
    expect(pix.pagination.total + notPix.pagination.total).toBe(all.pagination.total);
  });

  it('reads a bank by COMPE or ISPB code', async () => {
    const byCompe = (await get('/v1/banks/260')).json().data;
    const byIspb = (await get(`/v1/banks/${byCompe.ispb}`)).json().data;
    expect(byCompe).toMatchObject({ compe: '260', ispb: '18236120', pix_participant: true });
    expect(byIspb).toEqual(byCompe);
  });

  it('answers 404 for a code no bank has and 400 for a code of another shape', async () => {
    const unknown = await get('/v1/banks/999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    for (const code of ['12', '1234', 'abc', '0000000', '123456789']) {
      const response = await get(`/v1/banks/${code}`);
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses bad list parameters with 400, never clamping them', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'search=', 'pix_participant=maybe', 'color=red']) {
      const response = await get(`/v1/banks?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('needs a secret key: none is 401, a public key 403, an operator key 403', async () => {
    const operator = await createTestOperator(app);
    expect((await get('/v1/banks', {})).statusCode).toBe(401);
    expect((await get('/v1/banks', shop.public)).statusCode).toBe(403);
    expect((await get('/v1/banks/001', operator)).statusCode).toBe(403);
  });
});

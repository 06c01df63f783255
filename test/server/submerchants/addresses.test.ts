import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestClock } from '../../helpers/app.js';
import { addressBody, type Client, submerchantBody } from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

describe.each(DIALECTS)('%s: addresses', (dialect) => {
  let clock: TestClock;
  let api: Client;

  beforeAll(async () => {
    ({ clock, api } = await startOnboarding(dialect));
  });

  const newAddressesUrl = async () => {
    const submerchant = (await api.post('/v1/submerchants', submerchantBody())).body.data;
    return `/v1/submerchants/${submerchant.id}/addresses`;
  };
  const primaries = async (url: string) =>
    (await api.get(`${url}?limit=100`)).body.data
      .filter((a: { is_primary: boolean }) => a.is_primary)
      .map((a: { id: string }) => a.id);

  it('creates an address with the defaults: country BR, type both, not primary', async () => {
    const url = await newAddressesUrl();
    const { status, body } = await api.post(url, addressBody({ complement: undefined }));
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      street: 'Avenida Paulista',
      number: '1578',
      complement: null,
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      zip_code: '01310-200',
      country: 'BR',
      type: 'both',
      is_primary: false,
    });
    const detail = (await api.get(url.replace('/addresses', ''))).body.data;
    expect(detail.addresses).toEqual([body.data]);
    expect(detail.requirements.items.map((i: { code: string }) => i.code)).not.toContain('ADDRESS_MISSING');
  });

  it.each([
    ['no street', { street: undefined }, 'street'],
    ['no number', { number: undefined }, 'number'],
    ['no neighborhood', { neighborhood: undefined }, 'neighborhood'],
    ['no city', { city: undefined }, 'city'],
    ['a blank city', { city: '  ' }, 'city'],
    ['no state', { state: undefined }, 'state'],
    ['a 3-letter state', { state: 'SPA' }, 'state'],
    ['a 1-letter state', { state: 'S' }, 'state'],
    ['a state that is not Brazilian', { state: 'NY' }, 'state'],
    ['no zip_code', { zip_code: undefined }, 'zip_code'],
    ['a 7-character zip_code', { zip_code: '0131020' }, 'zip_code'],
    ['an 11-character zip_code', { zip_code: '01310-20000' }, 'zip_code'],
    ['a zip_code with letters', { zip_code: '01310-ABC' }, 'zip_code'],
    ['a country of 3 letters', { country: 'BRA' }, 'country'],
    ['an unknown type', { type: 'home' }, 'type'],
    ['is_primary as a string', { is_primary: 'true' }, 'is_primary'],
    ['an unknown field', { uf: 'SP' }, 'uf'],
  ])('refuses %s with 400 on that field', async (_case, overrides, field) => {
    const url = await newAddressesUrl();
    const { status, body } = await api.post(url, addressBody(overrides));
    expect(status).toBe(400);
    expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['an 8-character zip_code', { zip_code: '01310200' }, { zip_code: '01310200' }],
    ['a 10-character zip_code', { zip_code: '01.310-200' }, { zip_code: '01.310-200' }],
    ['a lower-case state', { state: 'rj' }, { state: 'RJ' }],
    ['the Federal District', { state: 'DF' }, { state: 'DF' }],
    ['type billing', { type: 'billing' }, { type: 'billing' }],
    ['type shipping', { type: 'shipping' }, { type: 'shipping' }],
  ])('accepts %s', async (_case, overrides, expected) => {
    const url = await newAddressesUrl();
    const { status, body } = await api.post(url, addressBody(overrides));
    expect(status).toBe(201);
    expect(body.data).toMatchObject(expected);
  });

  it('keeps at most one primary: a new primary clears the others, on POST and on PATCH', async () => {
    const url = await newAddressesUrl();
    const a = (await api.post(url, addressBody({ is_primary: true }))).body.data;
    const b = (await api.post(url, addressBody({ is_primary: false }))).body.data;
    expect(await primaries(url)).toEqual([a.id]);
    const c = (await api.post(url, addressBody({ is_primary: true }))).body.data;
    expect(await primaries(url)).toEqual([c.id]);
    const patched = await api.patch(`${url}/${b.id}`, { is_primary: true });
    expect(patched.body.data.is_primary).toBe(true);
    expect(await primaries(url)).toEqual([b.id]);
    await api.patch(`${url}/${b.id}`, { is_primary: false });
    expect(await primaries(url)).toEqual([]);
  });

  it('keeps at most one primary under concurrent creations', async () => {
    const url = await newAddressesUrl();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api.post(url, addressBody({ is_primary: true }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(await primaries(url)).toHaveLength(1);
  });

  it('PATCH changes only the given fields, with the same rules', async () => {
    const url = await newAddressesUrl();
    const address = (await api.post(url, addressBody())).body.data;
    clock.advance(1000);
    const { status, body } = await api.patch(`${url}/${address.id}`, {
      city: 'Campinas',
      state: 'sp',
      complement: null,
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      ...address,
      city: 'Campinas',
      state: 'SP',
      complement: null,
      updated_at: '2026-11-21T12:00:01.000Z',
    });
    const bad = await api.patch(`${url}/${address.id}`, { state: 'XX', zip_code: '123' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'state',
      'zip_code',
    ]);
    expect((await api.patch(`${url}/${address.id}`, {})).status).toBe(400);
    expect((await api.patch(`${url}/${address.id}`, { street: null })).status).toBe(400);
  });

  it('DELETE removes it; a second DELETE, or another submerchant’s address, is 404', async () => {
    const url = await newAddressesUrl();
    const otherUrl = await newAddressesUrl();
    const address = (await api.post(url, addressBody())).body.data;
    expect((await api.delete(`${otherUrl}/${address.id}`)).status).toBe(404);
    expect((await api.patch(`${otherUrl}/${address.id}`, { city: 'X' })).status).toBe(404);
    const deleted = await api.delete(`${url}/${address.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: address.id, deleted: true });
    expect((await api.get(url)).body.pagination.total).toBe(0);
    expect((await api.delete(`${url}/${address.id}`)).status).toBe(404);
    const detail = (await api.get(url.replace('/addresses', ''))).body.data;
    expect(detail.requirements.items.map((i: { code: string }) => i.code)).toContain('ADDRESS_MISSING');
  });

  it('lists and searches addresses', async () => {
    const url = await newAddressesUrl();
    await api.post(url, addressBody({ city: 'Curitiba', state: 'PR' }));
    await api.post(url, addressBody({ city: 'Manaus', state: 'AM' }));
    const list = await api.get(`${url}?search=curi`);
    expect(list.body.data.map((a: { city: string }) => a.city)).toEqual(['Curitiba']);
    expect((await api.get(`${url}?limit=1`)).body.pagination).toEqual({
      page: 1,
      limit: 1,
      total: 2,
      totalPages: 2,
    });
  });
});

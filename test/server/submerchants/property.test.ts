import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, type TestMerchant } from '../../helpers/app.js';
import {
  addressBody,
  documentBody,
  newCnpj,
  representativeBody,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

const RUNS = 100;

/** Values that have broken APIs before: wrong types, boundaries, NUL, impossible dates, huge numbers. */
const awkward = fc.oneof(
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map((text) => `${text}\u0000${text}`) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '2027-02-30',
      '2027-01-01T23:59:60Z',
      '0001-01-01T00:00:00+23:59',
      '9999-12-31T23:59:59-23:59',
      '0000-01-01',
      'http://',
      'https://',
      'javascript:alert(1)',
      '.pdf',
      'x'.repeat(5000),
      '00000000000000',
      '52998224725',
      '11222333000181',
      '4781-4/00',
      'sp',
      '01310-100',
      '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      -1,
      0,
      1e308,
      0.1,
      true,
      null,
    ),
  },
);

/** A valid body with some fields dropped, some replaced by awkward values, and maybe unknown fields added. */
function mutated(valid: Record<string, unknown>, extraKeys: string[] = []) {
  const keys = Object.keys(valid);
  return fc
    .record({
      // Mostly one change at a time, so that most bodies get past the schema to the rules and the store.
      drop: fc.oneof(fc.constant([]), fc.subarray(keys, { maxLength: 1 })),
      replace: fc.dictionary(fc.constantFrom(...keys, ...extraKeys, 'unknown_field'), awkward, {
        maxKeys: 2,
      }),
    })
    .map(({ drop, replace }) => {
      const body: Record<string, unknown> = { ...valid };
      for (const key of drop) delete body[key];
      return { ...body, ...replace };
    });
}

/** Any JSON at all as the body, or a mutated valid one (which reaches deeper into the rules). */
const bodies = (valid: () => Record<string, unknown>, extraKeys: string[] = []) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 4, arbitrary: fc.constant(null).chain(() => mutated(valid(), extraKeys)) },
  );

describe.each(DIALECTS)('%s: random bodies never produce a 500', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let submerchantId: string;
  let representativeId: string;
  let addressId: string;

  beforeAll(async () => {
    ({ app, merchant } = await startOnboarding(dialect));
    const created = await send('POST', '/v1/submerchants', submerchantBody());
    submerchantId = created.json().data.id;
    representativeId = (
      await send('POST', `/v1/submerchants/${submerchantId}/legal-representatives`, representativeBody())
    ).json().data.id;
    addressId = (await send('POST', `/v1/submerchants/${submerchantId}/addresses`, addressBody())).json().data
      .id;
  });

  function send(method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) {
    return app.inject({
      method,
      url,
      headers: { ...merchant.secret, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
  }

  async function expectHandled(method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) {
    const response = await send(method, url, body);
    if (response.statusCode >= 500) {
      throw new Error(
        `${method} ${url} answered ${response.statusCode} for ${JSON.stringify(body)}: ${response.body}`,
      );
    }
    if (response.statusCode >= 400) {
      const error = response.json();
      expect(typeof error.message).toBe('string');
      expect(error.error.code).toMatch(/^[A-Z_]+$/);
    }
  }

  const property = (arbitrary: fc.Arbitrary<unknown>, run: (body: unknown) => Promise<void>) =>
    fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: RUNS });

  it('POST /v1/submerchants', async () => {
    await property(
      bodies(() => submerchantBody({ tax_id: newCnpj() }), ['birth_date', 'mother_name', 'mcc']),
      (body) => expectHandled('POST', '/v1/submerchants', body),
    );
  });

  it('PATCH /v1/submerchants/:id', async () => {
    await property(
      bodies(() => submerchantBody({ tax_id: newCnpj() }), ['birth_date', 'mother_name', 'mcc']),
      (body) => expectHandled('PATCH', `/v1/submerchants/${submerchantId}`, body),
    );
  });

  it('POST …/legal-representatives', async () => {
    await property(
      bodies(() => representativeBody()),
      (body) => expectHandled('POST', `/v1/submerchants/${submerchantId}/legal-representatives`, body),
    );
  });

  it('POST …/documents', async () => {
    const valid = () =>
      documentBody('partner_front_id', {
        legal_representative_id: representativeId,
        expires_at: '2030-01-01',
        notes: 'n',
      });
    await property(bodies(valid), (body) =>
      expectHandled('POST', `/v1/submerchants/${submerchantId}/documents`, body),
    );
  });

  it('POST and PATCH …/addresses', async () => {
    await property(
      bodies(() => addressBody({ type: 'both', is_primary: true, country: 'BR' })),
      async (body) => {
        await expectHandled('POST', `/v1/submerchants/${submerchantId}/addresses`, body);
        await expectHandled('PATCH', `/v1/submerchants/${submerchantId}/addresses/${addressId}`, body);
      },
    );
  });

  it('list query strings', async () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.integer().map(String),
      fc.constantFrom('%00', '%', '_', '\\'),
    );
    const query = fc.dictionary(
      fc.constantFrom(
        'page',
        'limit',
        'status',
        'search',
        'date_from',
        'date_to',
        'type',
        'current',
        'other',
      ),
      value,
      { maxKeys: 4 },
    );
    await property(query, async (params) => {
      const search = new URLSearchParams(params as Record<string, string>).toString();
      await expectHandled('GET', `/v1/submerchants?${search}`);
      await expectHandled('GET', `/v1/submerchants/${submerchantId}/documents?${search}`);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  type TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  type Client,
  client,
  createBusyMerchant,
  newCnpj,
  newCpf,
  personSubmerchantBody,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

describe.each(DIALECTS)('%s: submerchants', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let merchant: TestMerchant;
  let api: Client;

  beforeAll(async () => {
    ({ app, clock, merchant, api } = await startOnboarding(dialect));
  });

  const create = (overrides: Record<string, unknown> = {}) =>
    api.post('/v1/submerchants', submerchantBody(overrides));

  describe('registration', () => {
    it('creates a pending company with every field, and answers with its requirements', async () => {
      const body = submerchantBody();
      const { status, body: response } = await api.post('/v1/submerchants', body);
      expect(status).toBe(201);
      expect(response.message).toBe('Submerchant created.');
      const data = response.data;
      expect(data).toMatchObject({
        merchant_id: merchant.id,
        entity_type: 'pj',
        tax_id: body.tax_id,
        trade_name: 'Loja do Zé',
        legal_name: 'Zé Comércio de Roupas LTDA',
        email: 'financeiro@lojadoze.com.br',
        phone: '11987654321',
        birth_date: null,
        mother_name: null,
        business_type: 'retail',
        product_categories: ['clothing', 'shoes'],
        average_ticket: 12_990,
        monthly_revenue: 5_000_000,
        mcc: '5651',
        mcc_source: 'cnae',
        cnaes: [
          { code: '4781-4/00', description: 'Comércio varejista de artigos do vestuário', is_primary: true },
        ],
        status: 'pending',
        rejection_reason: null,
        legal_representatives: [],
        addresses: [],
        documents: [],
        created_at: '2026-11-21T12:00:00.000Z',
      });
      expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(data.status_history).toEqual([
        {
          from: null,
          to: 'pending',
          actor: 'merchant',
          actor_id: merchant.id,
          at: '2026-11-21T12:00:00.000Z',
        },
      ]);
      expect(data.requirements.ready_for_review).toBe(false);
      expect(
        data.requirements.items.map((item: { code: string; document_type?: string }) => [
          item.code,
          item.document_type,
        ]),
      ).toEqual([
        ['REPRESENTATIVE_MISSING', undefined],
        ['ADDRESS_MISSING', undefined],
        ['DOCUMENT_MISSING', 'social_contract'],
        ['DOCUMENT_MISSING', 'cnpj_card'],
        ['DOCUMENT_MISSING', 'proof_of_residence_company'],
      ]);
    });

    it('defaults entity_type to pj and optional fields to empty', async () => {
      const { status, body } = await api.post('/v1/submerchants', {
        tax_id: newCnpj(),
        trade_name: 'Mínima',
        legal_name: 'Mínima LTDA',
        email: 'a@b.co',
        phone: '1133334444',
      });
      expect(status).toBe(201);
      expect(body.data).toMatchObject({
        entity_type: 'pj',
        product_categories: [],
        cnaes: [],
        average_ticket: null,
        monthly_revenue: null,
        business_type: null,
        mcc: null,
        mcc_source: null,
      });
      expect(body.data.requirements.items.map((item: { code: string }) => item.code)).toContain(
        'MCC_UNRESOLVED',
      );
    });

    it('creates a person (pf) with a CPF, birth date and mother name', async () => {
      const body = personSubmerchantBody();
      const { status, body: response } = await api.post('/v1/submerchants', body);
      expect(status).toBe(201);
      expect(response.data).toMatchObject({
        entity_type: 'pf',
        tax_id: body.tax_id,
        birth_date: '1985-04-12',
        mother_name: 'Ana da Silva',
      });
      expect(
        response.data.requirements.items.map((item: { code: string; document_type?: string }) => [
          item.code,
          item.document_type,
        ]),
      ).toEqual([
        ['ADDRESS_MISSING', undefined],
        ['DOCUMENT_MISSING', 'front_id'],
        ['DOCUMENT_MISSING', 'back_id'],
        ['DOCUMENT_MISSING', 'selfie_with_id'],
        ['DOCUMENT_MISSING', 'proof_of_residence'],
      ]);
    });

    describe('tax_id', () => {
      it.each([
        ['formatted CNPJ', { tax_id: '11.222.333/0001-81' }, /tax_id must contain digits only/],
        [
          'CPF for a pj',
          { tax_id: '52998224725' },
          /tax_id must have 14 digits \(CNPJ\); it has 11\. A company \(entity_type pj\) takes a CNPJ/,
        ],
        [
          'CNPJ for a pf',
          { entity_type: 'pf', tax_id: '11222333000181' },
          /tax_id must have 11 digits \(CPF\); it has 14/,
        ],
        ['wrong CNPJ check digit', { tax_id: '11222333000182' }, /not a valid CNPJ: its check digits/],
        [
          'wrong CPF check digit',
          { entity_type: 'pf', tax_id: '52998224724' },
          /not a valid CPF: its check digits/,
        ],
        ['repeated-digit CNPJ', { tax_id: '00000000000000' }, /one repeated digit/],
        ['repeated-digit CPF', { entity_type: 'pf', tax_id: '99999999999' }, /one repeated digit/],
        ['13 digits', { tax_id: '1122233300018' }, /14 digits/],
        ['15 digits', { tax_id: '112223330001810' }, /14 digits/],
        ['empty', { tax_id: '' }, /tax_id/],
      ])('refuses %s with a message naming the rule', async (_case, overrides, message) => {
        const { status, body } = await create(overrides);
        expect(status).toBe(400);
        expect(body.error.code).toBe('VALIDATION_ERROR');
        expect(body.error.details[0].field).toBe('tax_id');
        expect(body.error.details[0].message).toMatch(message);
      });

      it('accepts valid CNPJ (pj) and CPF (pf) numbers', async () => {
        expect((await create({ tax_id: '11222333000181' })).status).toBe(201);
        expect(
          (await api.post('/v1/submerchants', personSubmerchantBody({ tax_id: '52998224725' }))).status,
        ).toBe(201);
      });

      it('registers one tax id once per merchant: a second registration is 422 naming the first', async () => {
        const first = await create();
        const again = await create({ tax_id: first.body.data.tax_id, trade_name: 'Outra' });
        expect(again.status).toBe(422);
        expect(again.body.error.code).toBe('TAX_ID_ALREADY_REGISTERED');
        expect(again.body.message).toContain(first.body.data.id);
        // Another merchant has its own namespace.
        const other = await createTestMerchant(app, { name: 'Other marketplace' });
        const elsewhere = await client(app, other.secret).post(
          '/v1/submerchants',
          submerchantBody({ tax_id: first.body.data.tax_id }),
        );
        expect(elsewhere.status).toBe(201);
      });

      it('lets exactly one of concurrent registrations of one tax id through', async () => {
        const taxId = newCnpj();
        const results = await Promise.all(Array.from({ length: 6 }, () => create({ tax_id: taxId })));
        expect(results.map((result) => result.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
        for (const result of results.filter((r) => r.status === 422)) {
          expect(result.body.error.code).toBe('TAX_ID_ALREADY_REGISTERED');
        }
        const list = await api.get(`/v1/submerchants?search=${taxId}`);
        expect(list.body.pagination.total).toBe(1);
      });
    });

    it.each([
      ['entity_type other than pj/pf', { entity_type: 'mei' }, 'entity_type'],
      ['entity_type in capitals', { entity_type: 'PJ' }, 'entity_type'],
      ['missing trade_name', { trade_name: undefined }, 'trade_name'],
      ['empty trade_name', { trade_name: '' }, 'trade_name'],
      ['blank trade_name', { trade_name: '   ' }, 'trade_name'],
      ['trade_name of 201 characters', { trade_name: 'x'.repeat(201) }, 'trade_name'],
      ['missing legal_name', { legal_name: undefined }, 'legal_name'],
      ['missing email', { email: undefined }, 'email'],
      ['invalid email', { email: 'financeiro-at-lojadoze' }, 'email'],
      ['missing phone', { phone: undefined }, 'phone'],
      ['phone of 9 digits', { phone: '119876543' }, 'phone'],
      ['phone of 14 digits', { phone: '55119876543210' }, 'phone'],
      ['formatted phone', { phone: '(11) 98765-4321' }, 'phone'],
      ['birth_date on a pj', { birth_date: '1980-01-01' }, 'birth_date'],
      ['mother_name on a pj', { mother_name: 'Ana' }, 'mother_name'],
      ['product_categories not an array', { product_categories: 'clothing' }, 'product_categories'],
      ['product_categories of numbers', { product_categories: [1, 2] }, 'product_categories.0'],
      [
        '51 product_categories',
        { product_categories: Array.from({ length: 51 }, (_, i) => `c${i}`) },
        'product_categories',
      ],
      ['negative average_ticket', { average_ticket: -1 }, 'average_ticket'],
      ['fractional average_ticket', { average_ticket: 10.5 }, 'average_ticket'],
      ['average_ticket as a string', { average_ticket: '100' }, 'average_ticket'],
      ['average_ticket above 2^53', { average_ticket: Number.MAX_SAFE_INTEGER + 1 }, 'average_ticket'],
      ['negative monthly_revenue', { monthly_revenue: -1 }, 'monthly_revenue'],
      ['mcc of 3 digits', { mcc: '541' }, 'mcc'],
      ['mcc of 5 digits', { mcc: '54111' }, 'mcc'],
      ['mcc with letters', { mcc: '54a1' }, 'mcc'],
      ['cnae code not 7 digits', { cnaes: [{ code: '4781-4', is_primary: true }] }, 'cnaes.0.code'],
      ['cnae without code', { cnaes: [{ is_primary: true }] }, 'cnaes.0.code'],
      [
        'two primary cnaes',
        {
          cnaes: [
            { code: '4781400', is_primary: true },
            { code: '4782201', is_primary: true },
          ],
        },
        'cnaes',
      ],
      [
        'a cnae listed twice',
        { cnaes: [{ code: '4781400', is_primary: true }, { code: '4781-4/00' }] },
        'cnaes.1.code',
      ],
      ['an unknown field', { favourite_colour: 'blue' }, 'favourite_colour'],
    ])('refuses %s with 400 on that field', async (_case, overrides, field) => {
      const { status, body } = await create(overrides);
      expect(status).toBe(400);
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    });

    it.each([
      ['a 200-character trade_name', { trade_name: 'x'.repeat(200) }],
      ['a 10-digit phone', { phone: '1133334444' }],
      ['a 13-digit phone', { phone: '5511987654321' }],
      ['zero average_ticket and monthly_revenue', { average_ticket: 0, monthly_revenue: 0 }],
      ['the largest safe integer', { monthly_revenue: Number.MAX_SAFE_INTEGER }],
      ['50 product_categories', { product_categories: Array.from({ length: 50 }, (_, i) => `c${i}`) }],
      ['no primary cnae', { cnaes: [{ code: '4781400' }, { code: '4782201' }] }],
      ['an unformatted cnae', { cnaes: [{ code: '4781400', is_primary: true }] }],
    ])('accepts %s', async (_case, overrides) => {
      expect((await create(overrides)).status).toBe(201);
    });

    it.each([
      ['a leap day', '2024-02-29', 201],
      ['today', '2026-11-21', 201],
      ['a non-existent day', '2025-02-29', 400],
      ['tomorrow', '2026-11-22', 400],
      ['a date-time', '1985-04-12T00:00:00Z', 400],
    ])('pf birth_date: %s', async (_case, birthDate, expected) => {
      const { status, body } = await api.post(
        '/v1/submerchants',
        personSubmerchantBody({ birth_date: birthDate }),
      );
      expect(status).toBe(expected);
      if (expected === 400) expect(body.error.details[0].field).toBe('birth_date');
    });

    it('replays a retried registration with the same Idempotency-Key instead of registering twice', async () => {
      const body = submerchantBody();
      const send = (payload: Record<string, unknown>) =>
        app.inject({
          method: 'POST',
          url: '/v1/submerchants',
          headers: { ...merchant.secret, 'idempotency-key': `onboard-${body.tax_id}` },
          payload,
        });
      const first = await send(body);
      const retry = await send(body);
      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json().data.id).toBe(first.json().data.id);
      const reused = await send({ ...body, trade_name: 'Outra' });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/submerchants',
        headers: { ...merchant.secret, 'content-type': 'text/plain' },
        payload: 'tax_id=1',
      });
      expect(response.statusCode).toBe(415);
    });

    it('refuses text with NUL characters with 400 instead of failing in the database', async () => {
      const { status, body } = await create({ trade_name: 'Loja\u0000Zé' });
      expect(status).toBe(400);
      expect(body.error.details[0].field).toBe('trade_name');
    });
  });

  describe('MCC from the primary CNAE', () => {
    it('resolves the MCC from the mapping table', async () => {
      const { body } = await create({ cnaes: [{ code: '5611-2/01', is_primary: true }] });
      expect(body.data).toMatchObject({ mcc: '5812', mcc_source: 'cnae' });
      expect(body.data.requirements.items.map((item: { code: string }) => item.code)).not.toContain(
        'MCC_UNRESOLVED',
      );
    });

    it('uses only the primary CNAE', async () => {
      const { body } = await create({
        cnaes: [{ code: '4711302' }, { code: '6201501', is_primary: true }],
      });
      expect(body.data.mcc).toBe('7372');
    });

    it('leaves it empty and says so in requirements when the CNAE is not in the table', async () => {
      const { body } = await create({ cnaes: [{ code: '0111-3/01', is_primary: true }] });
      expect(body.data).toMatchObject({ mcc: null, mcc_source: null });
      const item = body.data.requirements.items.find((i: { code: string }) => i.code === 'MCC_UNRESOLVED');
      expect(item.message).toMatch(/send mcc/);
    });

    it('lets an explicit mcc win over the CNAE', async () => {
      const { body } = await create({ mcc: '5999', cnaes: [{ code: '4711302', is_primary: true }] });
      expect(body.data).toMatchObject({ mcc: '5999', mcc_source: 'provided' });
    });

    it('resolves again when the CNAEs change, keeps an explicit mcc, and mcc: null goes back to the table', async () => {
      const { body } = await create({ cnaes: [{ code: '4711302', is_primary: true }] });
      const url = `/v1/submerchants/${body.data.id}`;
      let patched = await api.patch(url, { cnaes: [{ code: '4771-7/01', is_primary: true }] });
      expect(patched.body.data).toMatchObject({ mcc: '5912', mcc_source: 'cnae' });
      patched = await api.patch(url, { mcc: '5977' });
      expect(patched.body.data).toMatchObject({ mcc: '5977', mcc_source: 'provided' });
      patched = await api.patch(url, { cnaes: [{ code: '4711302', is_primary: true }] });
      expect(patched.body.data).toMatchObject({ mcc: '5977', mcc_source: 'provided' });
      patched = await api.patch(url, { mcc: null });
      expect(patched.body.data).toMatchObject({ mcc: '5411', mcc_source: 'cnae' });
    });
  });

  describe('editing', () => {
    it('changes only the given fields; null clears an optional one', async () => {
      const created = (await create()).body.data;
      clock.advance(1000);
      const { status, body } = await api.patch(`/v1/submerchants/${created.id}`, {
        trade_name: 'Loja Nova',
        business_type: null,
        product_categories: ['toys'],
      });
      expect(status).toBe(200);
      expect(body.message).toBe('Submerchant updated.');
      expect(body.data).toMatchObject({
        trade_name: 'Loja Nova',
        business_type: null,
        product_categories: ['toys'],
        legal_name: created.legal_name,
        email: created.email,
        tax_id: created.tax_id,
        average_ticket: created.average_ticket,
        created_at: created.created_at,
      });
      expect(body.data.updated_at > created.updated_at).toBe(true);
      const read = await api.get(`/v1/submerchants/${created.id}`);
      expect(read.body.data.trade_name).toBe('Loja Nova');
      const found = await api.get('/v1/submerchants?search=LOJA%20NOVA');
      expect(found.body.data.map((s: { id: string }) => s.id)).toContain(created.id);
    });

    it('validates the record as it will be: switching to pf needs a CPF', async () => {
      const created = (await create()).body.data;
      const url = `/v1/submerchants/${created.id}`;
      const wrong = await api.patch(url, { entity_type: 'pf' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details[0].field).toBe('tax_id');
      const cpf = newCpf();
      const right = await api.patch(url, { entity_type: 'pf', tax_id: cpf, birth_date: '1990-01-01' });
      expect(right.status).toBe(200);
      expect(right.body.data).toMatchObject({ entity_type: 'pf', tax_id: cpf, birth_date: '1990-01-01' });
    });

    it("refuses another of the merchant's tax ids", async () => {
      const first = (await create()).body.data;
      const second = (await create()).body.data;
      const { status, body } = await api.patch(`/v1/submerchants/${second.id}`, { tax_id: first.tax_id });
      expect(status).toBe(422);
      expect(body.error.code).toBe('TAX_ID_ALREADY_REGISTERED');
    });

    it('refuses an empty patch and unknown fields', async () => {
      const created = (await create()).body.data;
      expect((await api.patch(`/v1/submerchants/${created.id}`, {})).status).toBe(400);
      expect((await api.patch(`/v1/submerchants/${created.id}`, { status: 'active' })).status).toBe(400);
    });
  });

  describe('lists', () => {
    let lister: Client;
    const ids: string[] = [];

    beforeAll(async () => {
      lister = client(app, (await createBusyMerchant(app, 'Lister')).secret);
      clock.set('2026-03-01T10:00:00.000Z');
      const names = ['Alfa Roupas', 'Beta Calçados', 'Gama Livros', 'Delta Roupas', 'Épsilon Brinquedos'];
      for (const [index, name] of names.entries()) {
        const { body } = await lister.post(
          '/v1/submerchants',
          submerchantBody({
            trade_name: name,
            legal_name: `${name} LTDA`,
            email: `contato${index}@seller${index}.com.br`,
          }),
        );
        ids.push(body.data.id);
        clock.advance(24 * 3600 * 1000);
      }
      clock.set('2026-11-21T12:00:00.000Z');
    });

    it('pages newest first with totals', async () => {
      const first = await lister.get('/v1/submerchants?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
      expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([ids[4], ids[3]]);
      const last = await lister.get('/v1/submerchants?limit=2&page=3');
      expect(last.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
      const beyond = await lister.get('/v1/submerchants?limit=2&page=4');
      expect(beyond.body.data).toEqual([]);
      expect(first.body.data[0]).not.toHaveProperty('requirements');
    });

    it.each([
      ['limit=0'],
      ['limit=101'],
      ['page=0'],
      ['status=approved'],
      ['date_from=2026-02-30'],
      ['search='],
    ])('refuses %s with 400', async (query) => {
      const { status, body } = await lister.get(`/v1/submerchants?${query}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('VALIDATION_ERROR');
    });

    it('searches names, tax id and e-mail case-insensitively', async () => {
      const byName = await lister.get('/v1/submerchants?search=roupas');
      expect(byName.body.data.map((s: { trade_name: string }) => s.trade_name).sort()).toEqual([
        'Alfa Roupas',
        'Delta Roupas',
      ]);
      const one = (await lister.get(`/v1/submerchants/${ids[2]}`)).body.data;
      const byTaxId = await lister.get(`/v1/submerchants?search=${one.tax_id.slice(0, 10)}`);
      expect(byTaxId.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
      const byEmail = await lister.get('/v1/submerchants?search=CONTATO3@');
      expect(byEmail.body.data.map((s: { id: string }) => s.id)).toEqual([ids[3]]);
      for (const accented of ['épsilon', 'ÉPSILON']) {
        const folded = await lister.get(`/v1/submerchants?search=${encodeURIComponent(accented)}`);
        expect(folded.body.data.map((s: { id: string }) => s.id)).toEqual([ids[4]]);
      }
      const literal = await lister.get('/v1/submerchants?search=%25');
      expect(literal.body.pagination.total).toBe(0);
    });

    it('filters by creation date (inclusive, UTC) and status', async () => {
      const range = await lister.get('/v1/submerchants?date_from=2026-03-02&date_to=2026-03-03');
      expect(range.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
      const pending = await lister.get('/v1/submerchants?status=pending');
      expect(pending.body.pagination.total).toBe(5);
      const active = await lister.get('/v1/submerchants?status=active');
      expect(active.body.pagination.total).toBe(0);
    });
  });

  describe('isolation and auth', () => {
    it("treats another merchant's submerchant as not found, everywhere", async () => {
      const mine = (await create()).body.data;
      const other = client(app, (await createTestMerchant(app, { name: 'Nosy' })).secret);
      const base = `/v1/submerchants/${mine.id}`;
      const calls = [
        other.get(base),
        other.patch(base, { trade_name: 'Hijacked' }),
        other.post(`${base}/submit-for-review`),
        other.post(`${base}/request-resubmission`),
        other.get(`${base}/legal-representatives`),
        other.post(`${base}/legal-representatives`, { name: 'X', document: newCpf() }),
        other.get(`${base}/documents`),
        other.post(`${base}/documents`, {
          type: 'cnpj_card',
          file_url: 'https://f.example.com/a.pdf',
          file_name: 'a.pdf',
          file_size: 1,
          mime_type: 'application/pdf',
        }),
        other.get(`${base}/addresses`),
        other.post(`${base}/addresses`, {
          street: 'R',
          number: '1',
          neighborhood: 'N',
          city: 'C',
          state: 'SP',
          zip_code: '01310100',
        }),
      ];
      for (const result of await Promise.all(calls)) {
        expect(result.status).toBe(404);
        expect(result.body.error.code).toBe('NOT_FOUND');
      }
      expect((await other.get('/v1/submerchants')).body.pagination.total).toBe(0);
      expect((await api.get(base)).body.data.trade_name).toBe(mine.trade_name);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect((await api.get('/v1/submerchants/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d')).status).toBe(404);
      expect((await api.get('/v1/submerchants/not-a-uuid')).status).toBe(400);
    });

    it('needs the secret key: public key 403, operator key 403, none 401', async () => {
      expect((await client(app, merchant.public).get('/v1/submerchants')).status).toBe(403);
      expect((await client(app, await createTestOperator(app)).get('/v1/submerchants')).status).toBe(403);
      expect((await client(app, {}).get('/v1/submerchants')).status).toBe(401);
    });

    it('counts submerchant calls in the queries rate-limit category (200 per window)', async () => {
      const plain = await createTestMerchant(app, { name: 'Plain' });
      const { headers } = await client(app, plain.secret).get('/v1/submerchants');
      expect(headers['x-ratelimit-limit']).toBe('200');
      expect(Number(headers['x-ratelimit-remaining'])).toBe(199);
    });
  });
});

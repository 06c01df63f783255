import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, type TestClock } from '../../helpers/app.js';
import {
  type Client,
  documentBody,
  newCnpj,
  newCpf,
  personSubmerchantBody,
  representativeBody,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

describe.each(DIALECTS)('%s: legal representatives', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let api: Client;

  beforeAll(async () => {
    ({ app, clock, api } = await startOnboarding(dialect));
  });

  const newSubmerchant = async (body = submerchantBody()) =>
    (await api.post('/v1/submerchants', body)).body.data;
  const repsUrl = (id: string) => `/v1/submerchants/${id}/legal-representatives`;

  it('creates a representative with every field (201)', async () => {
    const submerchant = await newSubmerchant();
    const body = representativeBody({ legal_name: 'José da Silva ME', participation_percentage: 33.33 });
    const { status, body: response } = await api.post(repsUrl(submerchant.id), body);
    expect(status).toBe(201);
    expect(response.message).toBe('Legal representative created.');
    expect(response.data).toMatchObject({
      submerchant_id: submerchant.id,
      name: 'José da Silva',
      document: body.document,
      entity_type: 'pf',
      legal_name: 'José da Silva ME',
      birth_date: '1980-01-31',
      mother_name: 'Joana da Silva',
      email: 'jose@lojadoze.com.br',
      phone: '11912345678',
      role: 'legal_representative',
      qualification: 'OWNER-ADMIN',
      participation_percentage: 33.33,
      is_admin: true,
    });
    const detail = await api.get(`/v1/submerchants/${submerchant.id}`);
    expect(detail.body.data.legal_representatives).toEqual([response.data]);
    expect(detail.body.data.requirements.items.map((i: { code: string }) => i.code)).not.toContain(
      'REPRESENTATIVE_MISSING',
    );
  });

  it('defaults entity_type to pf and is_admin to false; a pj representative takes a CNPJ', async () => {
    const submerchant = await newSubmerchant();
    const minimal = await api.post(repsUrl(submerchant.id), { name: 'Maria', document: newCpf() });
    expect(minimal.status).toBe(201);
    expect(minimal.body.data).toMatchObject({
      entity_type: 'pf',
      is_admin: false,
      participation_percentage: null,
      email: null,
    });
    const company = await api.post(repsUrl(submerchant.id), {
      name: 'Holding',
      entity_type: 'pj',
      document: newCnpj(),
    });
    expect(company.status).toBe(201);
    expect(company.body.data.entity_type).toBe('pj');
  });

  it('upserts by document: the same document updates the record (200), keeps its id, never duplicates', async () => {
    const submerchant = await newSubmerchant();
    const document = newCpf();
    const first = await api.post(repsUrl(submerchant.id), representativeBody({ document, name: 'José' }));
    clock.advance(5000);
    const second = await api.post(
      repsUrl(submerchant.id),
      representativeBody({ document, name: 'José Atualizado', role: 'admin' }),
    );
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.message).toMatch(/updated/);
    expect(second.body.data).toMatchObject({
      id: first.body.data.id,
      name: 'José Atualizado',
      role: 'admin',
      created_at: first.body.data.created_at,
    });
    expect(second.body.data.updated_at > first.body.data.updated_at).toBe(true);
    const list = await api.get(repsUrl(submerchant.id));
    expect(list.body.pagination.total).toBe(1);
    // The same document under another submerchant is another person record.
    const other = await newSubmerchant();
    expect((await api.post(repsUrl(other.id), representativeBody({ document }))).status).toBe(201);
  });

  it('spec rule "that record is updated": a repeated POST changes the fields it sends and keeps the others', async () => {
    const submerchant = await newSubmerchant();
    const document = newCpf();
    const first = await api.post(repsUrl(submerchant.id), representativeBody({ document }));
    clock.advance(1000);
    const { status, body } = await api.post(repsUrl(submerchant.id), {
      name: 'José Renomeado',
      document,
      email: 'novo@lojadoze.com.br',
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      ...first.body.data,
      name: 'José Renomeado',
      email: 'novo@lojadoze.com.br',
      updated_at: expect.any(String),
    });
    expect(body.data.updated_at > first.body.data.updated_at).toBe(true);
    // Sent values are checked against the stored ones: a pj entity_type with a CPF document is still refused.
    const mismatch = await api.post(repsUrl(submerchant.id), { name: 'José', document, entity_type: 'pj' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details[0].field).toBe('document');
  });

  it('posting the same values again changes nothing (no event, same updated_at)', async () => {
    const submerchant = await newSubmerchant();
    const body = representativeBody();
    const first = await api.post(repsUrl(submerchant.id), body);
    const events = () =>
      app.store.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'submerchant.updated')
        .where('data', 'like', `%${first.body.data.id}%`)
        .execute();
    expect(await events()).toHaveLength(1);
    clock.advance(1000);
    const again = await api.post(repsUrl(submerchant.id), body);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await events()).toHaveLength(1);
  });

  it('holds under concurrent POSTs of one document: exactly one record, one 201', async () => {
    const submerchant = await newSubmerchant();
    const document = newCpf();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        api.post(repsUrl(submerchant.id), representativeBody({ document, name: `Versão ${index}` })),
      ),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((result) => result.body.data.id)).size).toBe(1);
    const count = await app.store.db
      .selectFrom('submerchant_representatives')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('submerchant_id', '=', submerchant.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(1);
  });

  it.each([
    ['a formatted CPF', { document: '529.982.247-25' }, 'document', /digits only/],
    ['a CPF with a wrong check digit', { document: '52998224726' }, 'document', /check digits/],
    ['a repeated-digit CPF', { document: '11111111111' }, 'document', /repeated digit/],
    ['a CNPJ for a pf representative', { document: '11222333000181' }, 'document', /11 digits \(CPF\)/],
    [
      'a CPF for a pj representative',
      { entity_type: 'pj', document: '52998224725' },
      'document',
      /14 digits \(CNPJ\)/,
    ],
    [
      'a CNPJ with a wrong check digit',
      { entity_type: 'pj', document: '11222333000180' },
      'document',
      /check digits/,
    ],
    ['no name', { name: undefined }, 'name', /required/],
    ['a blank name', { name: '  ' }, 'name', /blank/],
    ['no document', { document: undefined }, 'document', /required/],
    ['an unknown entity_type', { entity_type: 'mei' }, 'entity_type', /one of/],
    ['participation above 100', { participation_percentage: 100.01 }, 'participation_percentage', /100/],
    ['negative participation', { participation_percentage: -0.01 }, 'participation_percentage', /0/],
    [
      'participation with 3 decimals',
      { participation_percentage: 33.333 },
      'participation_percentage',
      /2 decimal places/,
    ],
    ['participation as a string', { participation_percentage: '50' }, 'participation_percentage', /number/],
    ['a birth date in the future', { birth_date: '2026-11-22' }, 'birth_date', /future/],
    ['an invalid email', { email: 'jose' }, 'email', /email/],
    ['a formatted phone', { phone: '(11) 91234-5678' }, 'phone', /digits only/],
    ['is_admin as a string', { is_admin: 'yes' }, 'is_admin', /boolean/],
    ['an unknown field', { cpf: '52998224725' }, 'cpf', /not a known field/],
  ])('refuses %s with 400 on that field', async (_case, overrides, field, message) => {
    const submerchant = await newSubmerchant();
    const { status, body } = await api.post(repsUrl(submerchant.id), representativeBody(overrides));
    expect(status).toBe(400);
    const detail = body.error.details.find((d: { field: string }) => d.field === field);
    expect(detail?.message).toMatch(message);
  });

  it.each([
    ['participation 0', { participation_percentage: 0 }],
    ['participation 100', { participation_percentage: 100 }],
    ['participation 0.01', { participation_percentage: 0.01 }],
    ['a birth date of today', { birth_date: '2026-11-21' }],
  ])('accepts %s', async (_case, overrides) => {
    const submerchant = await newSubmerchant();
    const { status, body } = await api.post(repsUrl(submerchant.id), representativeBody(overrides));
    expect(status).toBe(201);
    if ('participation_percentage' in overrides) {
      expect(body.data.participation_percentage).toBe(overrides.participation_percentage);
    }
  });

  it('lists, searches and reads representatives', async () => {
    const submerchant = await newSubmerchant();
    const ana = (await api.post(repsUrl(submerchant.id), representativeBody({ name: 'Ana Souza' }))).body
      .data;
    clock.advance(1000);
    const bruno = (await api.post(repsUrl(submerchant.id), representativeBody({ name: 'Bruno Lima' }))).body
      .data;
    const list = await api.get(repsUrl(submerchant.id));
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([bruno.id, ana.id]);
    const search = await api.get(`${repsUrl(submerchant.id)}?search=souza`);
    expect(search.body.data.map((r: { id: string }) => r.id)).toEqual([ana.id]);
    const byDocument = await api.get(`${repsUrl(submerchant.id)}?search=${bruno.document}`);
    expect(byDocument.body.data.map((r: { id: string }) => r.id)).toEqual([bruno.id]);
    const one = await api.get(`${repsUrl(submerchant.id)}/${ana.id}`);
    expect(one.body.data).toEqual(ana);
    // A representative is read through its own submerchant only.
    const other = await newSubmerchant();
    expect((await api.get(`${repsUrl(other.id)}/${ana.id}`)).status).toBe(404);
  });

  it('deletes a representative and, in the same transaction, every document linked to it', async () => {
    const submerchant = await newSubmerchant();
    const docsUrl = `/v1/submerchants/${submerchant.id}/documents`;
    const keep = (await api.post(repsUrl(submerchant.id), representativeBody())).body.data;
    const gone = (await api.post(repsUrl(submerchant.id), representativeBody())).body.data;
    const company = (await api.post(docsUrl, documentBody('cnpj_card'))).body.data;
    const kept = (
      await api.post(docsUrl, documentBody('partner_front_id', { legal_representative_id: keep.id }))
    ).body.data;
    const first = (
      await api.post(docsUrl, documentBody('partner_front_id', { legal_representative_id: gone.id }))
    ).body.data;
    const replacement = (
      await api.post(docsUrl, documentBody('partner_front_id', { legal_representative_id: gone.id }))
    ).body.data;
    const back = (
      await api.post(docsUrl, documentBody('partner_back_id', { legal_representative_id: gone.id }))
    ).body.data;

    const { status, body } = await api.delete(`${repsUrl(submerchant.id)}/${gone.id}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      id: gone.id,
      deleted: true,
      deleted_document_ids: expect.arrayContaining([first.id, replacement.id, back.id]),
    });
    expect(body.data.deleted_document_ids).toHaveLength(3);
    const remaining = await api.get(`${docsUrl}?limit=100`);
    expect(remaining.body.data.map((d: { id: string }) => d.id).sort()).toEqual([company.id, kept.id].sort());
    expect((await api.get(`${docsUrl}/${back.id}`)).status).toBe(404);
    const detail = (await api.get(`/v1/submerchants/${submerchant.id}`)).body.data;
    expect(detail.legal_representatives.map((r: { id: string }) => r.id)).toEqual([keep.id]);
    expect(
      detail.requirements.items.some(
        (i: { legal_representative_id?: string }) => i.legal_representative_id === gone.id,
      ),
    ).toBe(false);
    expect((await api.delete(`${repsUrl(submerchant.id)}/${gone.id}`)).status).toBe(404);
  });

  it('spec rule "a pf submerchant needs no representative": it is not required, and adding one is 422 REPRESENTATIVE_NOT_ALLOWED_FOR_PF', async () => {
    const person = await newSubmerchant(personSubmerchantBody());
    const detail = (await api.get(`/v1/submerchants/${person.id}`)).body.data;
    expect(detail.requirements.items.map((i: { code: string }) => i.code)).not.toContain(
      'REPRESENTATIVE_MISSING',
    );
    const refused = await api.post(repsUrl(person.id), representativeBody());
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('REPRESENTATIVE_NOT_ALLOWED_FOR_PF');
    expect(refused.body.message).toMatch(/person \(entity_type pf\)/);
    expect((await api.get(repsUrl(person.id))).body.pagination.total).toBe(0);
  });

  it('refuses to turn a pj with representatives into a pf (422 REPRESENTATIVE_NOT_ALLOWED_FOR_PF)', async () => {
    const company = await newSubmerchant();
    await api.post(repsUrl(company.id), representativeBody());
    const patch = await api.patch(`/v1/submerchants/${company.id}`, { entity_type: 'pf', tax_id: newCpf() });
    expect(patch.status).toBe(422);
    expect(patch.body.error.code).toBe('REPRESENTATIVE_NOT_ALLOWED_FOR_PF');
    expect((await api.get(`/v1/submerchants/${company.id}`)).body.data.entity_type).toBe('pj');
  });

  it.each([
    ['role', 'partner', /legal_representative, individual_owner, corporate_owner, admin/],
    ['role', 'LEGAL_REPRESENTATIVE', /legal_representative/],
    ['qualification', 'sócio-administrador', /DIRECTOR, ADMIN, OWNER, OWNER-ADMIN, ATTORNEY/],
    ['qualification', 'owner', /OWNER-ADMIN/],
  ])('spec enum: %s %s is 400 naming the allowed values', async (field, value, allowed) => {
    const submerchant = await newSubmerchant();
    const { status, body } = await api.post(repsUrl(submerchant.id), representativeBody({ [field]: value }));
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details).toEqual([{ field, message: expect.stringMatching(allowed) }]);
    expect((await api.get(repsUrl(submerchant.id))).body.pagination.total).toBe(0);
  });

  it.each([
    ['role', ['legal_representative', 'individual_owner', 'corporate_owner', 'admin']],
    ['qualification', ['DIRECTOR', 'ADMIN', 'OWNER', 'OWNER-ADMIN', 'ATTORNEY']],
  ])('spec enum: accepts every %s of the interface', async (field, values) => {
    const submerchant = await newSubmerchant();
    for (const value of values) {
      const { status, body } = await api.post(
        repsUrl(submerchant.id),
        representativeBody({ [field]: value }),
      );
      expect(status).toBe(201);
      expect(body.data[field]).toBe(value);
    }
  });
});

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { createTestMerchant, createTestOperator, DIALECTS, type TestClock } from '../../helpers/app.js';
import { recordStatements } from '../../helpers/statements.js';
import {
  type Client,
  client,
  createBusyMerchant,
  documentBody,
  personSubmerchantBody,
  representativeBody,
  seedSubmerchant,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

const TWELVE_TYPES = [
  'social_contract',
  'contract_amendment',
  'cnpj_card',
  'proof_of_residence_company',
  'partner_front_id',
  'partner_back_id',
  'partner_selfie_with_id',
  'partner_proof_of_residence',
  'front_id',
  'back_id',
  'selfie_with_id',
  'proof_of_residence',
];

describe.each(DIALECTS)('%s: documents', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let api: Client;
  let merchantId: string;
  let merchantHeaders: Record<string, string>;

  beforeAll(async () => {
    const onboarding = await startOnboarding(dialect);
    ({ app, clock, api } = onboarding);
    merchantId = onboarding.merchant.id;
    merchantHeaders = onboarding.merchant.secret;
  });

  const newCompany = async () => {
    const submerchant = (await api.post('/v1/submerchants', submerchantBody())).body.data;
    const representative = (
      await api.post(`/v1/submerchants/${submerchant.id}/legal-representatives`, representativeBody())
    ).body.data;
    return {
      id: submerchant.id as string,
      repId: representative.id as string,
      docs: `/v1/submerchants/${submerchant.id}/documents`,
    };
  };

  it('records a document with every field, pending, with its history', async () => {
    const { id, docs } = await newCompany();
    const body = documentBody('social_contract', {
      number: 'JUCESP 123',
      expires_at: '2030-01-31T23:59:59-03:00',
      notes: 'Última alteração contratual',
    });
    const { status, body: response } = await api.post(docs, body);
    expect(status).toBe(201);
    expect(response.message).toBe('Document created.');
    expect(response.data).toMatchObject({
      submerchant_id: id,
      type: 'social_contract',
      legal_representative_id: null,
      number: 'JUCESP 123',
      file_url: 'https://files.example.com/social_contract.pdf',
      file_name: 'social_contract.pdf',
      file_size: 204_800,
      mime_type: 'application/pdf',
      expires_at: '2030-02-01T02:59:59.000Z',
      notes: 'Última alteração contratual',
      status: 'pending',
      rejection_reason: null,
      current: true,
      replaced_at: null,
      replaces_document_id: null,
      status_history: [
        {
          from: null,
          to: 'pending',
          actor: 'merchant',
          actor_id: merchantId,
          at: '2026-11-21T12:00:00.000Z',
        },
      ],
    });
  });

  it("answers 404 for an unknown submerchant or another merchant's, and records no history", async () => {
    const { id, docs } = await newCompany();
    const historyRows = async () =>
      Number(
        (
          await app.store.db
            .selectFrom('submerchant_status_changes')
            .select((eb) => eb.fn.countAll().as('rows'))
            .executeTakeFirstOrThrow()
        ).rows,
      );
    const before = await historyRows();
    const nosy = client(app, (await createTestMerchant(app, { name: 'Nosy' })).secret);
    const unknown = '/v1/submerchants/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d/documents';
    for (const [caller, url] of [
      [api, unknown],
      [nosy, docs],
    ] as const) {
      const { status, body } = await caller.post(url, documentBody('social_contract'));
      expect(status).toBe(404);
      expect(body.error.code).toBe('NOT_FOUND');
    }
    expect(await historyRows()).toBe(before);
    expect((await api.get(`/v1/submerchants/${id}/documents`)).body.pagination.total).toBe(0);
  });

  it.each(TWELVE_TYPES)('accepts the %s type', async (type) => {
    const { docs, repId } = await newCompany();
    const partner = type.startsWith('partner_');
    const { status, body } = await api.post(
      docs,
      documentBody(type, partner ? { legal_representative_id: repId } : {}),
    );
    expect(status).toBe(201);
    expect(body.data.type).toBe(type);
  });

  it.each([
    ['an unknown type', { type: 'passport' }, 'type'],
    ['no file_url', { file_url: undefined }, 'file_url'],
    ['a relative file_url', { file_url: '/files/a.pdf' }, 'file_url'],
    ['an ftp file_url', { file_url: 'ftp://files.example.com/a.pdf' }, 'file_url'],
    ['a javascript: file_url', { file_url: 'javascript:alert(1)' }, 'file_url'],
    ['a file_name without extension', { file_name: 'contract' }, 'file_name'],
    ['a file_name that is only an extension', { file_name: '.pdf' }, 'file_name'],
    ['a file_name with a folder', { file_name: 'docs/contract.pdf' }, 'file_name'],
    ['a file_name ending in a dot', { file_name: 'contract.' }, 'file_name'],
    ['file_size 0', { file_size: 0 }, 'file_size'],
    ['a fractional file_size', { file_size: 1.5 }, 'file_size'],
    ['a file_size as a string', { file_size: '100' }, 'file_size'],
    ['an image/gif mime_type', { mime_type: 'image/gif' }, 'mime_type'],
    ['an expires_at that is not a date', { expires_at: 'next year' }, 'expires_at'],
    ['an expires_at on 30 February', { expires_at: '2027-02-30' }, 'expires_at'],
    ['an expires_at at hour 24', { expires_at: '2027-01-01T24:00:00Z' }, 'expires_at'],
    ['an expires_at leap second', { expires_at: '2027-01-01T23:59:60Z' }, 'expires_at'],
    ['an expires_at without offset', { expires_at: '2027-01-01T10:00:00' }, 'expires_at'],
    ['a blank number', { number: ' ' }, 'number'],
    ['an unknown field', { url: 'https://x.example.com/a.pdf' }, 'url'],
  ])('refuses %s with 400 on that field', async (_case, overrides, field) => {
    const { docs } = await newCompany();
    const { status, body } = await api.post(docs, documentBody('cnpj_card', overrides));
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['file_size 1', { file_size: 1 }],
    ['a PNG', { mime_type: 'image/png', file_name: 'card.png' }],
    [
      'a JPEG over http',
      { mime_type: 'image/jpeg', file_name: 'card.jpeg', file_url: 'http://files.example.com/card.jpeg' },
    ],
    ['an expires_at date', { expires_at: '2027-01-31' }],
  ])('accepts %s', async (_case, overrides) => {
    const { docs } = await newCompany();
    expect((await api.post(docs, documentBody('cnpj_card', overrides))).status).toBe(201);
  });

  describe('the partner rule', () => {
    it('requires legal_representative_id for every partner_* type', async () => {
      const { docs } = await newCompany();
      for (const type of [
        'partner_front_id',
        'partner_back_id',
        'partner_selfie_with_id',
        'partner_proof_of_residence',
      ]) {
        const { status, body } = await api.post(docs, documentBody(type));
        expect(status).toBe(400);
        expect(body.error.details[0]).toMatchObject({ field: 'legal_representative_id' });
        expect(body.error.details[0].message).toMatch(/required/);
      }
    });

    it('forbids legal_representative_id on every other type', async () => {
      const { docs, repId } = await newCompany();
      for (const type of TWELVE_TYPES.filter((t) => !t.startsWith('partner_'))) {
        const { status, body } = await api.post(docs, documentBody(type, { legal_representative_id: repId }));
        expect(status).toBe(400);
        expect(body.error.details[0].message).toMatch(/only for partner_\* document types/);
      }
    });

    it("refuses another submerchant's representative, or an unknown id, with 422", async () => {
      const mine = await newCompany();
      const theirs = await newCompany();
      for (const repId of [theirs.repId, '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d']) {
        const { status, body } = await api.post(
          mine.docs,
          documentBody('partner_front_id', { legal_representative_id: repId }),
        );
        expect(status).toBe(422);
        expect(body.error.code).toBe('LEGAL_REPRESENTATIVE_NOT_FOUND');
      }
      const list = await api.get(mine.docs);
      expect(list.body.pagination.total).toBe(0);
    });
  });

  describe('replacement', () => {
    it('makes the new document current and marks the earlier one replaced_at; the list shows both', async () => {
      const { id, docs } = await newCompany();
      const first = (await api.post(docs, documentBody('cnpj_card', { file_name: 'v1.pdf' }))).body.data;
      clock.advance(60_000);
      const second = await api.post(docs, documentBody('cnpj_card', { file_name: 'v2.pdf' }));
      expect(second.status).toBe(201);
      expect(second.body.message).toBe(`Document created; it replaces document ${first.id}.`);
      expect(second.body.data).toMatchObject({
        current: true,
        replaces_document_id: first.id,
        replaced_at: null,
      });

      const old = (await api.get(`${docs}/${first.id}`)).body.data;
      expect(old).toMatchObject({
        current: false,
        replaced_at: second.body.data.created_at,
        file_name: 'v1.pdf',
      });

      const all = await api.get(docs);
      expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.data.id, first.id]);
      const current = await api.get(`${docs}?current=true`);
      expect(current.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.data.id]);
      const replaced = await api.get(`${docs}?current=false`);
      expect(replaced.body.data.map((d: { id: string }) => d.id)).toEqual([first.id]);

      const detail = (await api.get(`/v1/submerchants/${id}`)).body.data;
      expect(detail.documents.map((d: { id: string }) => d.id)).toEqual([second.body.data.id]);
    });

    it('replaces per representative for partner documents', async () => {
      const { id, docs, repId } = await newCompany();
      const otherRep = (await api.post(`/v1/submerchants/${id}/legal-representatives`, representativeBody()))
        .body.data.id;
      const a = (await api.post(docs, documentBody('partner_front_id', { legal_representative_id: repId })))
        .body.data;
      const b = (
        await api.post(docs, documentBody('partner_front_id', { legal_representative_id: otherRep }))
      ).body.data;
      expect(b.replaces_document_id).toBeNull();
      const a2 = (await api.post(docs, documentBody('partner_front_id', { legal_representative_id: repId })))
        .body.data;
      expect(a2.replaces_document_id).toBe(a.id);
      const current = (await api.get(`${docs}?current=true`)).body.data
        .map((d: { id: string }) => d.id)
        .sort();
      expect(current).toEqual([b.id, a2.id].sort());
    });

    it('uses only the current document in requirements: a rejected one replaced by a new upload stops counting', async () => {
      const { id, docs } = await newCompany();
      const operator = client(app, await createTestOperator(app));
      const rejected = (await api.post(docs, documentBody('cnpj_card'))).body.data;
      await operator.post(`/v1/operator/submerchants/${id}/documents/${rejected.id}/reject`, {
        reason: 'Illegible scan',
      });
      let items = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements.items;
      expect(items).toContainEqual({
        code: 'DOCUMENT_REJECTED',
        document_type: 'cnpj_card',
        document_id: rejected.id,
        message: 'The cnpj_card document was rejected: Illegible scan. Upload a new one.',
      });
      await api.post(docs, documentBody('cnpj_card'));
      items = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements.items;
      expect(items.filter((i: { document_type?: string }) => i.document_type === 'cnpj_card')).toEqual([]);
    });

    it('does not replace twice when an upload is retried with the same Idempotency-Key', async () => {
      const { docs } = await newCompany();
      const send = () =>
        app.inject({
          method: 'POST',
          url: docs,
          headers: { ...merchantHeaders, 'idempotency-key': 'upload-cnpj-card-1' },
          payload: documentBody('cnpj_card'),
        });
      const first = await send();
      const retry = await send();
      expect(retry.json().data.id).toBe(first.json().data.id);
      expect((await api.get(docs)).body.pagination.total).toBe(1);
    });

    it('leaves exactly one current document after concurrent uploads of one type', async () => {
      const { docs } = await newCompany();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          api.post(docs, documentBody('social_contract', { file_name: `v${index}.pdf` })),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      const current = await api.get(`${docs}?current=true&type=social_contract`);
      expect(current.body.pagination.total).toBe(1);
      const all = await api.get(`${docs}?type=social_contract`);
      expect(all.body.pagination.total).toBe(8);
      // The replacement chain links every upload once.
      const replaces = all.body.data.map(
        (d: { replaces_document_id: string | null }) => d.replaces_document_id,
      );
      expect(replaces.filter((r: string | null) => r === null)).toHaveLength(1);
      expect(new Set(replaces.filter(Boolean)).size).toBe(7);
    });
  });

  describe('expiry', () => {
    it('counts a document whose expires_at is past as expired, in requirements and in its status', async () => {
      const { id, docs } = await newCompany();
      const past = (await api.post(docs, documentBody('cnpj_card', { expires_at: '2026-11-20' }))).body.data;
      expect(past.status).toBe('expired');
      const soon = (
        await api.post(docs, documentBody('social_contract', { expires_at: '2026-11-21T12:30:00Z' }))
      ).body.data;
      expect(soon.status).toBe('pending');
      let items = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements.items;
      expect(items).toContainEqual({
        code: 'DOCUMENT_EXPIRED',
        document_type: 'cnpj_card',
        document_id: past.id,
        message: 'The cnpj_card document expired on 2026-11-20T00:00:00.000Z. Upload a new one.',
      });
      expect(items.some((i: { document_type?: string }) => i.document_type === 'social_contract')).toBe(
        false,
      );

      clock.advance(31 * 60_000);
      items = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements.items;
      expect(
        items
          .filter((i: { code: string }) => i.code === 'DOCUMENT_EXPIRED')
          .map((i: { document_type: string }) => i.document_type)
          .sort(),
      ).toEqual(['cnpj_card', 'social_contract']);
      const expired = await api.get(`${docs}?status=expired`);
      expect(expired.body.pagination.total).toBe(2);
      const pending = await api.get(`${docs}?status=pending`);
      expect(pending.body.pagination.total).toBe(0);
      clock.set('2026-11-21T12:00:00.000Z');
    });
  });

  describe('requirements per partner', () => {
    it('lists each missing partner document of each representative', async () => {
      const merchant = await createBusyMerchant(app, 'Seeded');
      const seeded = await seedSubmerchant(app, merchant);
      const detail = (await client(app, merchant.secret).get(`/v1/submerchants/${seeded.id}`)).body.data;
      expect(detail.documents).toHaveLength(12);
      expect(detail.legal_representatives).toHaveLength(3);
      expect(detail.addresses).toHaveLength(2);
      const third = seeded.representativeIds[2];
      expect(detail.requirements).toMatchObject({
        ready_for_review: false,
        items: ['partner_back_id', 'partner_selfie_with_id', 'partner_proof_of_residence'].map((type) => ({
          code: 'DOCUMENT_MISSING',
          document_type: type,
          legal_representative_id: third,
          message: `Upload a ${type} document for legal representative Sócio 3 (${third}).`,
        })),
      });
    });

    it('is ready for review once a pf has its address and four documents', async () => {
      const person = (await api.post('/v1/submerchants', personSubmerchantBody())).body.data;
      const base = `/v1/submerchants/${person.id}`;
      await api.post(`${base}/addresses`, {
        street: 'Rua A',
        number: '1',
        neighborhood: 'Centro',
        city: 'Recife',
        state: 'PE',
        zip_code: '50010000',
      });
      for (const type of ['front_id', 'back_id', 'selfie_with_id', 'proof_of_residence']) {
        await api.post(`${base}/documents`, documentBody(type));
      }
      const detail = (await api.get(base)).body.data;
      expect(detail.requirements).toMatchObject({ ready_for_review: true, items: [] });
      // Sent, not yet reviewed: the four documents await the operator.
      expect(detail.requirements.pending_verification.map((item: { code: string }) => item.code)).toEqual(
        Array(4).fill('DOCUMENT_PENDING_REVIEW'),
      );
    });
  });
});

// Issue 14: every upload to a submerchant waits for the one holding its lock, so what runs between the lock and
// COMMIT bounds the route's throughput on PostgreSQL (bench/README.md).
describe('documents on PostgreSQL: the statements of an upload', () => {
  afterEach(() => vi.restoreAllMocks());

  it('replaces a document in five statements, the lock and the replacement prepared once by name', async () => {
    const { api } = await startOnboarding('postgres');
    const submerchant = (await api.post('/v1/submerchants', submerchantBody())).body.data;
    const docs = `/v1/submerchants/${submerchant.id}/documents`;
    const first = (await api.post(docs, documentBody('social_contract'))).body.data;

    const sent = recordStatements();
    const { status, body } = await api.post(docs, documentBody('social_contract', { file_name: 'v2.pdf' }));
    vi.restoreAllMocks();

    expect(status).toBe(201);
    expect(body.data).toMatchObject({ file_name: 'v2.pdf', replaces_document_id: first.id, current: true });
    expect(sent.map((statement) => statement.text)).toEqual([
      'begin',
      expect.stringMatching(/^with "locked" as \(update "submerchants"/),
      expect.stringMatching(/^with "retired" as \(update "submerchant_documents"/),
      expect.stringMatching(/^with "event" as \(insert into "events"/),
      'commit',
    ]);
    for (const statement of sent.slice(1, 4)) expect(statement.name).toEqual(expect.any(String));
    // What was answered is what was stored: the first is replaced, its history and the new one's kept.
    // By id, not by position: two uploads in the same millisecond list in their ids' order.
    const stored = (await api.get(`${docs}?type=social_contract`)).body.data as {
      id: string;
      current: boolean;
      status_history: unknown[];
    }[];
    expect(stored.map((d) => [d.id, d.current]).sort()).toEqual(
      [
        [body.data.id, true],
        [first.id, false],
      ].sort(),
    );
    expect(stored.find((d) => d.id === body.data.id)?.status_history).toEqual([
      expect.objectContaining({ from: null, to: 'pending' }),
    ]);
  });
});

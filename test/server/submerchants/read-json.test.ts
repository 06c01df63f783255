import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { dataResponse } from '../../../src/server/http/envelope.js';
import { SubmerchantDetailSchema } from '../../../src/server/submerchants/schemas.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  type TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  addressBody,
  type Client,
  client,
  documentBody,
  personSubmerchantBody,
  representativeBody,
  seedSubmerchant,
} from '../../helpers/submerchants.js';
import { presentedAnswer, startOnboarding } from './fixtures.js';

// GET /v1/submerchants/:id sends the JSON text one statement builds (submerchants/read-json.ts) instead of
// presenting and serialising objects. It must answer, byte for byte, what the presenters and the route's response
// schema answer for the same records at the same time — on a submerchant that exercises every kind of value —
// and keep the read's scope and what deletions and replacements hide.

const ResponseSchema = dataResponse(SubmerchantDetailSchema);

const validAnswer = addFormats.default(new Ajv.default({ strict: false })).compile(ResponseSchema);

describe.each(DIALECTS)('%s: GET /v1/submerchants/:id answers the statement’s JSON', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let merchant: TestMerchant;
  let api: Client;
  let operator: Client;
  let rich: string;
  let seededDocuments: string[];
  let deleted: { representative: string; address: string; replacedDocument: string };

  beforeAll(async () => {
    ({ app, clock, merchant, api } = await startOnboarding(dialect));
    operator = client(app, await createTestOperator(app));
    const seeded = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
    rich = seeded.id;
    seededDocuments = seeded.documentIds;
    const base = `/v1/submerchants/${rich}`;
    const ok = (result: { status: number; body: unknown }) => {
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
      return result.body as { data: { id: string } };
    };
    // Text that JSON must escape or keep as UTF-8, nulls, a CNAE without description, decimals.
    ok(
      await api.patch(base, {
        trade_name: 'Loja "Zé" \\ Ñandú — 東京 😀',
        product_categories: ['roupas "finas"', 'calçados\\botas'],
        cnaes: [
          { code: '4781-4/00', description: 'Comércio varejista de artigos do vestuário', is_primary: true },
          { code: '4782-2/01' },
        ],
        business_type: null,
      }),
    );
    ok(
      await api.post(
        `${base}/legal-representatives`,
        representativeBody({ name: 'Ana "Quarta" Sócia', participation_percentage: 12.5, is_admin: false }),
      ),
    );
    ok(
      await api.post(
        `${base}/legal-representatives`,
        representativeBody({ name: 'Bia Centésimos', participation_percentage: 33.33, email: undefined }),
      ),
    );
    const leaving = ok(
      await api.post(`${base}/legal-representatives`, representativeBody({ name: 'Sai Logo' })),
    );
    ok(await api.delete(`${base}/legal-representatives/${leaving.data.id}`));
    const extraAddress = ok(await api.post(`${base}/addresses`, addressBody({ complement: undefined })));
    ok(await api.delete(`${base}/addresses/${extraAddress.data.id}`));
    // A document replaced by a second upload to its slot, which expires tomorrow and has notes.
    const replaced = seeded.documentIds[2]!;
    const slotType = (await api.get(`${base}/documents`)).body.data.find(
      (document: { id: string }) => document.id === replaced,
    ).type;
    clock.advance(1);
    ok(
      await api.post(
        `${base}/documents`,
        documentBody(slotType, {
          expires_at: '2026-11-22T12:00:00.000Z',
          notes: 'Cópia "autenticada"\nverso',
        }),
      ),
    );
    deleted = { representative: leaving.data.id, address: extraAddress.data.id, replacedDocument: replaced };
    // Review: one document rejected with a reason, one approved; the submerchant rejected with a reason and sent
    // back to pending, so its history has reasons and a null `from`.
    ok(await api.post(`${base}/submit-for-review`));
    clock.advance(1);
    ok(
      await operator.post(`/v1/operator/submerchants/${rich}/documents/${seeded.documentIds[0]}/reject`, {
        reason: 'Ilegível: "carimbo" \\ borrado',
      }),
    );
    ok(await operator.post(`/v1/operator/submerchants/${rich}/documents/${seeded.documentIds[1]}/approve`));
    ok(
      await operator.post(`/v1/operator/submerchants/${rich}/reject`, { reason: 'Contrato social ilegível' }),
    );
    clock.advance(1);
    ok(await api.post(`${base}/request-resubmission`));
  }, 120_000);

  const read = (id: string, as: TestMerchant = merchant) =>
    app.inject({ method: 'GET', url: `/v1/submerchants/${id}`, headers: as.secret });

  test('a rich submerchant: byte for byte what the presenters and the response schema answer', async () => {
    const answer = await read(rich);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toBe(await presentedAnswer(app, rich, merchant.id, clock.now()));
    expect(validAnswer(answer.json())).toBe(true);
    const { data } = answer.json();
    // What the comparison covers, so that it cannot pass on an empty submerchant.
    expect(data.trade_name).toBe('Loja "Zé" \\ Ñandú — 東京 😀');
    expect(data.cnaes[1]).toEqual({ code: '4782-2/01', description: null, is_primary: false });
    // The seeded records share a creation time (ordered by id then): found by what they hold, not by position.
    const representatives = new Map(
      data.legal_representatives.map((rep: { name: string }) => [rep.name, rep] as const),
    );
    expect(representatives.get('Ana "Quarta" Sócia')).toMatchObject({
      participation_percentage: 12.5,
      is_admin: false,
    });
    expect(representatives.get('Bia Centésimos')).toMatchObject({
      participation_percentage: 33.33,
      is_admin: true,
    });
    expect(representatives.get('Sócio 1')).toMatchObject({ participation_percentage: 33 });
    expect(data.documents).toHaveLength(12);
    const documents = new Map<string, { status: string; status_history: { to: string }[] }>(
      data.documents.map((document: { id: string }) => [document.id, document]),
    );
    expect(documents.get(seededDocuments[0]!)).toMatchObject({ status: 'rejected' });
    expect(documents.get(seededDocuments[0]!)!.status_history.at(-1)).toMatchObject({
      to: 'rejected',
      reason: 'Ilegível: "carimbo" \\ borrado',
    });
    expect(documents.get(seededDocuments[1]!)).toMatchObject({ status: 'approved' });
    expect(data.status_history.map((entry: { to: string }) => entry.to)).toEqual([
      'pending',
      'pending_review',
      'rejected',
      'pending',
    ]);
    expect(data.status_history[2].reason).toBe('Contrato social ilegível');
    expect('reason' in data.status_history[0]).toBe(false);
    expect(data.requirements.items.map((item: { code: string }) => item.code)).toContain('DOCUMENT_REJECTED');
  });

  test('deleted representatives and addresses, and replaced documents, stay hidden', async () => {
    const { data } = (await read(rich)).json();
    const ids = (list: { id: string }[]) => list.map((item) => item.id);
    expect(ids(data.legal_representatives)).not.toContain(deleted.representative);
    expect(data.legal_representatives).toHaveLength(5);
    expect(ids(data.addresses)).not.toContain(deleted.address);
    expect(data.addresses).toHaveLength(2);
    expect(ids(data.documents)).not.toContain(deleted.replacedDocument);
    expect(data.documents.every((document: { current: boolean }) => document.current)).toBe(true);
  });

  test('a document past its expires_at reads as expired, in its status and in the requirements', async () => {
    const before = (await read(rich)).json().data;
    const renewed = before.documents.find((document: { expires_at: string | null }) => document.expires_at);
    expect(renewed.status).toBe('pending');
    clock.set('2026-11-22T12:00:00.001Z');
    const answer = await read(rich);
    expect(answer.body).toBe(await presentedAnswer(app, rich, merchant.id, clock.now()));
    const after = answer.json().data;
    expect(after.documents.find((document: { id: string }) => document.id === renewed.id).status).toBe(
      'expired',
    );
    expect(after.requirements.items).toContainEqual(
      expect.objectContaining({ code: 'DOCUMENT_EXPIRED', document_id: renewed.id }),
    );
  });

  test('a submerchant with nothing attached: empty lists, byte for byte', async () => {
    const person = (await api.post('/v1/submerchants', personSubmerchantBody())).body.data;
    const answer = await read(person.id);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await presentedAnswer(app, person.id, merchant.id, clock.now()));
    expect(answer.json().data).toMatchObject({ legal_representatives: [], addresses: [], documents: [] });
  });

  test("another merchant's submerchant and an unknown id are 404 in the error shape", async () => {
    const other = await createTestMerchant(app, { name: 'Other' });
    for (const answer of [await read(rich, other), await read('7c1f4a52-8f0e-4c1b-9a57-0d3f5e2b6a10')]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: expect.any(String), error: { code: 'NOT_FOUND' } });
      expect(answer.body).not.toContain(rich);
    }
  });
});

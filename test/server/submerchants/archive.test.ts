import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { createTestOperator, DIALECTS, type TestClock } from '../../helpers/app.js';
import {
  type Client,
  client,
  documentBody,
  representativeBody,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

/** Issue 12 item 14: deleting a representative or a document keeps the audit trail for the operator. */
describe.each(DIALECTS)('%s: the archive of deletions', { timeout: 60_000 }, (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let api: Client;
  let operator: Client;
  let merchantId: string;
  let operatorKeyId: string;

  beforeAll(async () => {
    const onboarding = await startOnboarding(dialect);
    ({ app, clock, api } = onboarding);
    merchantId = onboarding.merchant.id;
    operator = client(app, await createTestOperator(app));
    operatorKeyId = (await app.store.db.selectFrom('operator_keys').select('id').executeTakeFirstOrThrow())
      .id;
  });

  /** A company with two representatives; the second has an approved ID (replacing an earlier upload). */
  const companyWithApprovedPartnerDocument = async () => {
    const id = (await api.post('/v1/submerchants', submerchantBody())).body.data.id as string;
    const reps = `/v1/submerchants/${id}/legal-representatives`;
    const docs = `/v1/submerchants/${id}/documents`;
    const keep = (await api.post(reps, representativeBody())).body.data;
    const gone = (await api.post(reps, representativeBody())).body.data;
    const replaced = (
      await api.post(docs, documentBody('partner_front_id', { legal_representative_id: gone.id }))
    ).body.data;
    clock.advance(1000);
    const approved = (
      await api.post(docs, documentBody('partner_front_id', { legal_representative_id: gone.id }))
    ).body.data;
    clock.advance(1000);
    const decision = await operator.post(`/v1/operator/submerchants/${id}/documents/${approved.id}/approve`);
    expect(decision.status, JSON.stringify(decision.body)).toBe(200);
    return { id, reps, docs, keep, gone, replaced, approved };
  };

  it('deleting a representative hides it and its approved document from the merchant, and archives them for the operator', async () => {
    const { id, reps, docs, keep, gone, replaced, approved } = await companyWithApprovedPartnerDocument();
    clock.advance(60_000);
    const deletedAt = clock.now().toISOString();
    const deleted = await api.delete(`${reps}/${gone.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deleted_document_ids.sort()).toEqual([replaced.id, approved.id].sort());

    // The merchant's side is as after a delete: gone from the lists, the reads and the requirements.
    expect((await api.get(`${reps}/${gone.id}`)).status).toBe(404);
    expect((await api.get(reps)).body.data.map((r: { id: string }) => r.id)).toEqual([keep.id]);
    expect((await api.get(`${docs}/${approved.id}`)).status).toBe(404);
    expect((await api.get(`${docs}?limit=100`)).body.data).toEqual([]);
    const detail = (await api.get(`/v1/submerchants/${id}`)).body.data;
    expect(detail.legal_representatives.map((r: { id: string }) => r.id)).toEqual([keep.id]);
    expect(detail.documents).toEqual([]);
    expect(JSON.stringify(detail.requirements)).not.toContain(gone.id);

    // The operator reads what was deleted, by whom and when, with the review history as it was.
    const archive = await operator.get(`/v1/operator/submerchants/${id}/archive`);
    expect(archive.status).toBe(200);
    const deletedBy = { deleted_at: deletedAt, deleted_by: { actor: 'merchant', actor_id: merchantId } };
    expect(archive.body.data.submerchant_id).toBe(id);
    expect(archive.body.data.legal_representatives).toEqual([{ ...gone, ...deletedBy }]);
    const archivedDocuments = archive.body.data.documents;
    expect(archivedDocuments.map((d: { id: string }) => d.id).sort()).toEqual(
      [replaced.id, approved.id].sort(),
    );
    const approvedInArchive = archivedDocuments.find((d: { id: string }) => d.id === approved.id);
    expect(approvedInArchive).toMatchObject({
      ...deletedBy,
      status: 'approved',
      legal_representative_id: gone.id,
      replaces_document_id: replaced.id,
      file_url: approved.file_url,
    });
    expect(approvedInArchive.status_history).toEqual([
      { from: null, to: 'pending', actor: 'merchant', actor_id: merchantId, at: approved.created_at },
      {
        from: 'pending',
        to: 'approved',
        actor: 'operator',
        actor_id: operatorKeyId,
        at: expect.any(String),
      },
    ]);
    expect(archivedDocuments.find((d: { id: string }) => d.id === replaced.id)).toMatchObject({
      ...deletedBy,
      current: false,
      status: 'pending',
    });
  });

  it('a deleted representative and its documents cannot be acted on or brought back by the merchant', async () => {
    const { id, reps, docs, gone, approved } = await companyWithApprovedPartnerDocument();
    expect((await api.delete(`${reps}/${gone.id}`)).status).toBe(200);

    expect((await api.delete(`${reps}/${gone.id}`)).status).toBe(404);
    expect((await api.delete(`${docs}/${approved.id}`)).status).toBe(404);
    const review = `/v1/operator/submerchants/${id}/documents/${approved.id}`;
    expect((await operator.post(`${review}/expire`)).status).toBe(404);
    expect((await operator.post(`${review}/reject`, { reason: 'Unreadable' })).status).toBe(404);
    const upload = await api.post(
      docs,
      documentBody('partner_back_id', { legal_representative_id: gone.id }),
    );
    expect(upload.status).toBe(422);
    expect(upload.body.error.code).toBe('LEGAL_REPRESENTATIVE_NOT_FOUND');

    // Sending the same person again makes a new representative: the archived one stays archived.
    const again = await api.post(reps, representativeBody({ document: gone.document, name: gone.name }));
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(gone.id);
    expect((await api.get(`${docs}?limit=100`)).body.data).toEqual([]);
    const archive = (await operator.get(`/v1/operator/submerchants/${id}/archive`)).body.data;
    expect(archive.legal_representatives.map((r: { id: string }) => r.id)).toEqual([gone.id]);
    expect(archive.documents.find((d: { id: string }) => d.id === approved.id).status).toBe('approved');
  });

  it('deleting a pending document archives it with its history and frees its slot', async () => {
    const id = (await api.post('/v1/submerchants', submerchantBody())).body.data.id as string;
    const docs = `/v1/submerchants/${id}/documents`;
    const wrong = (await api.post(docs, documentBody('cnpj_card'))).body.data;
    clock.advance(5000);
    expect((await api.delete(`${docs}/${wrong.id}`)).status).toBe(200);
    expect((await api.get(`${docs}/${wrong.id}`)).status).toBe(404);
    expect((await api.delete(`${docs}/${wrong.id}`)).status).toBe(404);

    const right = await api.post(docs, documentBody('cnpj_card'));
    expect(right.status).toBe(201);
    expect(right.body.data).toMatchObject({ current: true, replaces_document_id: null });

    const archive = (await operator.get(`/v1/operator/submerchants/${id}/archive`)).body.data;
    expect(archive.legal_representatives).toEqual([]);
    expect(archive.documents).toEqual([
      {
        ...wrong,
        deleted_at: clock.now().toISOString(),
        deleted_by: { actor: 'merchant', actor_id: merchantId },
      },
    ]);
  });

  it('is the operator’s: a merchant key is refused, an unknown submerchant is 404, nothing deleted is empty', async () => {
    const id = (await api.post('/v1/submerchants', submerchantBody())).body.data.id as string;
    expect((await api.get(`/v1/operator/submerchants/${id}/archive`)).status).toBe(403);
    const unknown = await operator.get(
      '/v1/operator/submerchants/00000000-0000-4000-8000-000000000000/archive',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const empty = await operator.get(`/v1/operator/submerchants/${id}/archive`);
    expect(empty.body.data).toEqual({ submerchant_id: id, legal_representatives: [], documents: [] });
  });
});

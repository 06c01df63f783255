import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { openStore } from '../../../src/server/db/connect.js';
import type { Database } from '../../../src/server/db/database.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { migrations } from '../../../src/server/db/migrations/index.js';
import { createMerchant } from '../../../src/server/merchants/service.js';
import { basic, createTestOperator, DIALECTS, freshDatabaseUrl, type TestClock } from '../../helpers/app.js';
import {
  addressBody,
  type Client,
  client,
  documentBody,
  personSubmerchantBody,
  representativeBody,
  seedSubmerchant,
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

type Item = { code: string; legal_representative_id?: string; document_id?: string; document_type?: string };

describe.each(DIALECTS)('%s: onboarding rules of the published interface', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let api: Client;
  let merchant: Awaited<ReturnType<typeof startOnboarding>>['merchant'];
  let operator: Client;

  beforeAll(async () => {
    ({ app, clock, api, merchant } = await startOnboarding(dialect));
    operator = client(app, await createTestOperator(app));
  });

  /** A company seeded with one representative, its 7 documents and an address, submitted and approved. */
  async function activeCompany() {
    const seeded = await seedSubmerchant(app, merchant, { representatives: 1, documents: 7, addresses: 1 });
    expect((await api.post(`/v1/submerchants/${seeded.id}/submit-for-review`)).status).toBe(200);
    expect((await operator.post(`/v1/operator/submerchants/${seeded.id}/approve`)).status).toBe(200);
    return seeded;
  }

  describe('document types', () => {
    it('spec table "required document types": contract_amendment is a pj type review does not need', async () => {
      const { body } = await api.post('/v1/submerchants', submerchantBody());
      const base = `/v1/submerchants/${body.data.id}`;
      const amendment = await api.post(`${base}/documents`, documentBody('contract_amendment'));
      expect(amendment.status).toBe(201);
      expect(amendment.body.data.type).toBe('contract_amendment');
      const detail = (await api.get(base)).body.data;
      expect(detail.requirements.items.map((item: Item) => item.document_type)).not.toContain(
        'contract_amendment',
      );
    });

    it('the interface has no type other: 400 listing the twelve', async () => {
      const { body } = await api.post('/v1/submerchants', submerchantBody());
      const refused = await api.post(`/v1/submerchants/${body.data.id}/documents`, documentBody('other'));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].field).toBe('type');
      expect(refused.body.error.details[0].message).toMatch(/social_contract, contract_amendment, cnpj_card/);
    });

    it('migration 0016 turns stored documents of type other into contract_amendment, saying so in notes', async () => {
      const url = await freshDatabaseUrl(dialect);
      const store = openStore<Database>(url);
      try {
        const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0016'));
        await migrateToLatest(store.db, before);
        const now = '2026-11-01T00:00:00.000Z';
        await store.db
          .insertInto('merchants')
          .values({
            id: 'a0000000-0000-4000-8000-000000000001',
            name: 'Old',
            secret_key_hash: 'x',
            public_key_hash: 'y',
            fraud_analysis_mandatory: 0,
            allowed_hosts: '[]',
            rate_limits: '{}',
            created_at: now,
            updated_at: now,
          })
          .execute();
        const submerchant = {
          merchant_id: 'a0000000-0000-4000-8000-000000000001',
          entity_type: 'pj',
          trade_name: 'T',
          legal_name: 'L',
          email: 'e@example.com',
          phone: '11987654321',
          search_text: 't',
          product_categories: '[]',
          cnaes: '[]',
          created_at: now,
          updated_at: now,
        };
        await store.db
          .insertInto('submerchants')
          .values([
            { ...submerchant, id: 'b0000000-0000-4000-8000-000000000001', tax_id: '1', status: 'active' },
            { ...submerchant, id: 'b0000000-0000-4000-8000-000000000002', tax_id: '2', status: 'pending' },
          ])
          .execute();
        const document = {
          legal_representative_id: null,
          type: 'other',
          slot: 'other',
          file_url: 'https://files.example.com/a.pdf',
          file_name: 'a.pdf',
          file_size: 1,
          mime_type: 'application/pdf',
          status: 'pending',
          created_at: now,
          updated_at: now,
        };
        await store.db
          .insertInto('submerchant_documents')
          .values([
            {
              ...document,
              id: 'c0000000-0000-4000-8000-000000000001',
              submerchant_id: 'b0000000-0000-4000-8000-000000000001',
              notes: null,
            },
            {
              ...document,
              id: 'c0000000-0000-4000-8000-000000000002',
              submerchant_id: 'b0000000-0000-4000-8000-000000000002',
              notes: 'Aditivo 3',
            },
          ] as never)
          .execute();
        const representative = {
          name: 'R',
          entity_type: 'pf',
          is_admin: 0,
          created_at: now,
          updated_at: now,
        };
        await store.db
          .insertInto('submerchant_representatives')
          .values([
            {
              ...representative,
              id: 'd0000000-0000-4000-8000-000000000001',
              submerchant_id: 'b0000000-0000-4000-8000-000000000001',
              document: '1',
            },
            {
              ...representative,
              id: 'd0000000-0000-4000-8000-000000000002',
              submerchant_id: 'b0000000-0000-4000-8000-000000000002',
              document: '2',
            },
          ] as never)
          .execute();

        await migrateToLatest(store.db, migrations);

        const documents = await store.db
          .selectFrom('submerchant_documents')
          .select(['id', 'type', 'slot', 'notes'])
          .orderBy('id')
          .execute();
        expect(documents).toEqual([
          {
            id: 'c0000000-0000-4000-8000-000000000001',
            type: 'contract_amendment',
            slot: 'contract_amendment',
            notes: 'Sent with type other; migrated to contract_amendment.',
          },
          {
            id: 'c0000000-0000-4000-8000-000000000002',
            type: 'contract_amendment',
            slot: 'contract_amendment',
            notes: 'Aditivo 3 (Sent with type other; migrated to contract_amendment.)',
          },
        ]);
        // Representatives of an already active submerchant were reviewed with it; the others were not.
        const representatives = await store.db
          .selectFrom('submerchant_representatives')
          .select(['id', 'review_status'])
          .orderBy('id')
          .execute();
        expect(representatives.map((row) => row.review_status)).toEqual(['approved', 'pending']);
      } finally {
        await store.close();
      }
    });
  });

  describe('changes after approval', () => {
    it('an approved submerchant shows nothing pending; its representatives are approved', async () => {
      const seeded = await activeCompany();
      const detail = (await api.get(`/v1/submerchants/${seeded.id}`)).body.data;
      expect(detail.status).toBe('active');
      expect(detail.legal_representatives.map((r: { review_status: string }) => r.review_status)).toEqual([
        'approved',
      ]);
      // The documents were not reviewed one by one: they still await the operator.
      expect(detail.requirements.pending_verification.map((item: Item) => item.code)).toEqual(
        Array(7).fill('DOCUMENT_PENDING_REVIEW'),
      );
    });

    it('a changed representative of an active submerchant is pending again until the operator approves it', async () => {
      const seeded = await activeCompany();
      const base = `/v1/submerchants/${seeded.id}`;
      const [representativeId] = seeded.representativeIds;
      const stored = (await api.get(`${base}/legal-representatives/${representativeId}`)).body.data;
      const changed = await api.post(`${base}/legal-representatives`, {
        name: stored.name,
        document: stored.document,
        email: 'changed@lojadoze.com.br',
      });
      expect(changed.status).toBe(200);
      expect(changed.body.data.review_status).toBe('pending');
      clock.advance(1000);
      const added = await api.post(
        `${base}/legal-representatives`,
        representativeBody({ name: 'Nova Sócia' }),
      );
      expect(added.body.data.review_status).toBe('pending');
      const detail = (await api.get(base)).body.data;
      expect(detail.status).toBe('active');
      const pending = detail.requirements.pending_verification.filter(
        (item: Item) => item.code === 'REPRESENTATIVE_PENDING_REVIEW',
      );
      expect(pending.map((item: Item) => item.legal_representative_id)).toEqual([
        representativeId,
        added.body.data.id,
      ]);
      // The new representative's partner documents are now missing: what the merchant must still send.
      expect(
        detail.requirements.items.filter((item: Item) => item.legal_representative_id === added.body.data.id),
      ).toHaveLength(4);

      const approved = await operator.post(
        `/v1/operator/submerchants/${seeded.id}/legal-representatives/${representativeId}/approve`,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.data.review_status).toBe('approved');
      const again = await operator.post(
        `/v1/operator/submerchants/${seeded.id}/legal-representatives/${representativeId}/approve`,
      );
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_STATE');
      const after = (await api.get(base)).body.data.requirements.pending_verification;
      expect(
        after
          .filter((item: Item) => item.code === 'REPRESENTATIVE_PENDING_REVIEW')
          .map((item: Item) => item.legal_representative_id),
      ).toEqual([added.body.data.id]);
    });

    it('a new document on an active submerchant awaits review in pending_verification', async () => {
      const seeded = await activeCompany();
      const base = `/v1/submerchants/${seeded.id}`;
      const documents = (await api.get(`${base}/documents`)).body.data as { id: string }[];
      for (const document of documents) {
        await operator.post(`/v1/operator/submerchants/${seeded.id}/documents/${document.id}/approve`);
      }
      expect((await api.get(base)).body.data.requirements.pending_verification).toEqual([]);
      const renewed = await api.post(`${base}/documents`, documentBody('cnpj_card'));
      const detail = (await api.get(base)).body.data;
      expect(detail.status).toBe('active');
      expect(detail.requirements.pending_verification).toEqual([
        {
          code: 'DOCUMENT_PENDING_REVIEW',
          document_type: 'cnpj_card',
          document_id: renewed.body.data.id,
          message: 'The cnpj_card document awaits review.',
        },
      ]);
    });

    it.each(['active', 'pending_review'])(
      'spec rule "a pj needs a legal representative": in %s it cannot drop to none (422 REPRESENTATIVE_REQUIRED)',
      async (status) => {
        const seeded = await seedSubmerchant(app, merchant, {
          representatives: 1,
          documents: 0,
          addresses: 1,
        });
        await api.post(`/v1/submerchants/${seeded.id}/submit-for-review`);
        if (status === 'active') await operator.post(`/v1/operator/submerchants/${seeded.id}/approve`);
        const url = `/v1/submerchants/${seeded.id}/legal-representatives`;
        const refused = await api.delete(`${url}/${seeded.representativeIds[0]}`);
        expect(refused.status).toBe(422);
        expect(refused.body.error.code).toBe('REPRESENTATIVE_REQUIRED');
        expect((await api.get(url)).body.pagination.total).toBe(1);
        // With a second one, the first can go.
        const second = await api.post(url, representativeBody());
        expect((await api.delete(`${url}/${seeded.representativeIds[0]}`)).status).toBe(200);
        expect((await api.get(url)).body.data.map((r: { id: string }) => r.id)).toEqual([
          second.body.data.id,
        ]);
      },
    );

    it('a pending pj may still delete its only representative', async () => {
      const seeded = await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 0 });
      const url = `/v1/submerchants/${seeded.id}/legal-representatives/${seeded.representativeIds[0]}`;
      expect((await api.delete(url)).status).toBe(200);
    });
  });

  describe('reads and deletes', () => {
    it('GET /v1/submerchants/:id/addresses/:addressId reads one address; another submerchant’s is 404', async () => {
      const seeded = await seedSubmerchant(app, merchant, { representatives: 0, documents: 0, addresses: 1 });
      const other = await seedSubmerchant(app, merchant, { representatives: 0, documents: 0, addresses: 0 });
      const [addressId] = seeded.addressIds;
      const read = await api.get(`/v1/submerchants/${seeded.id}/addresses/${addressId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        id: addressId,
        submerchant_id: seeded.id,
        street: 'Avenida Paulista',
      });
      const elsewhere = await api.get(`/v1/submerchants/${other.id}/addresses/${addressId}`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error.code).toBe('NOT_FOUND');
    });

    it('DELETE of a document that is not approved removes it; its slot is missing again', async () => {
      const { body } = await api.post('/v1/submerchants', personSubmerchantBody());
      const base = `/v1/submerchants/${body.data.id}`;
      await api.post(`${base}/addresses`, addressBody());
      const front = (await api.post(`${base}/documents`, documentBody('front_id'))).body.data;
      const deleted = await api.delete(`${base}/documents/${front.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ id: front.id, deleted: true });
      expect((await api.get(`${base}/documents/${front.id}`)).status).toBe(404);
      const detail = (await api.get(base)).body.data;
      expect(detail.requirements.items).toContainEqual(
        expect.objectContaining({ code: 'DOCUMENT_MISSING', document_type: 'front_id' }),
      );
      expect((await api.delete(`${base}/documents/${front.id}`)).status).toBe(404);
    });

    it('DELETE of an approved or a replaced document is 409 INVALID_STATE and keeps it', async () => {
      const { body } = await api.post('/v1/submerchants', personSubmerchantBody());
      const base = `/v1/submerchants/${body.data.id}`;
      const first = (await api.post(`${base}/documents`, documentBody('back_id'))).body.data;
      await api.post(`${base}/documents`, documentBody('back_id'));
      const replaced = await api.delete(`${base}/documents/${first.id}`);
      expect(replaced.status).toBe(409);
      expect(replaced.body.message).toMatch(/replaced/);
      const selfie = (await api.post(`${base}/documents`, documentBody('selfie_with_id'))).body.data;
      await operator.post(`/v1/operator/submerchants/${body.data.id}/documents/${selfie.id}/approve`);
      const approved = await api.delete(`${base}/documents/${selfie.id}`);
      expect(approved.status).toBe(409);
      expect(approved.body.error.code).toBe('INVALID_STATE');
      expect(approved.body.message).toMatch(/approved/);
      expect((await api.get(`${base}/documents/${selfie.id}`)).body.data.status).toBe('approved');
    });
  });

  describe('addresses', () => {
    it('spec limits "state 2 characters, zip_code 8 to 10": an address outside Brazil follows them as written', async () => {
      const { body } = await api.post('/v1/submerchants', submerchantBody());
      const url = `/v1/submerchants/${body.data.id}/addresses`;
      const lisbon = await api.post(url, addressBody({ country: 'PT', state: 'LX', zip_code: '1000-001' }));
      expect(lisbon.status).toBe(201);
      expect(lisbon.body.data).toMatchObject({ country: 'PT', state: 'LX', zip_code: '1000-001' });
      const short = await api.post(url, addressBody({ country: 'US', state: 'NY', zip_code: '10001' }));
      expect(short.status).toBe(400);
      expect(short.body.error.details).toEqual([
        { field: 'zip_code', message: 'zip_code must be 8 to 10 characters.' },
      ]);
      // Brazil (the default country) keeps its UF codes and CEP digits.
      const brazil = await api.post(url, addressBody({ state: 'LX' }));
      expect(brazil.status).toBe(400);
      expect(brazil.body.error.details[0].message).toMatch(/Brazilian state code/);
      // PATCH checks the address as it will be: a Brazilian address cannot take a foreign state alone.
      const saoPaulo = (await api.post(url, addressBody())).body.data;
      const foreignState = await api.patch(`${url}/${saoPaulo.id}`, { state: 'LX' });
      expect(foreignState.status).toBe(400);
      const moved = await api.patch(`${url}/${saoPaulo.id}`, {
        country: 'PT',
        state: 'LX',
        zip_code: '1000-001',
      });
      expect(moved.status).toBe(200);
      const back = await api.patch(`${url}/${lisbon.body.data.id}`, { country: 'BR' });
      expect(back.status).toBe(400);
      expect(back.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
        'state',
        'zip_code',
      ]);
    });
  });

  describe('test mode', () => {
    it('POST /v1/test/submerchants/:id/approve finishes onboarding without an operator', async () => {
      const seeded = await seedSubmerchant(app, merchant, { representatives: 1, documents: 7, addresses: 1 });
      const early = await api.post(`/v1/test/submerchants/${seeded.id}/approve`);
      expect(early.status).toBe(409);
      expect(early.body.message).toMatch(/Submit it for review first/);
      await api.post(`/v1/submerchants/${seeded.id}/submit-for-review`);
      clock.advance(1000);
      const approved = await api.post(`/v1/test/submerchants/${seeded.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.data.status).toBe('active');
      expect(approved.body.data.documents.map((d: { status: string }) => d.status)).toEqual(
        Array(7).fill('approved'),
      );
      expect(approved.body.data.requirements.pending_verification).toEqual([]);
      expect(approved.body.data.status_history.at(-1)).toMatchObject({
        from: 'pending_review',
        to: 'active',
        actor: 'merchant',
        reason: 'Decided in test mode by the merchant.',
      });
      // Later changes are approved the same way.
      const added = await api.post(
        `/v1/submerchants/${seeded.id}/legal-representatives`,
        representativeBody(),
      );
      expect(added.body.data.review_status).toBe('pending');
      const again = await api.post(`/v1/test/submerchants/${seeded.id}/approve`);
      expect(
        again.body.data.legal_representatives.map((r: { review_status: string }) => r.review_status),
      ).toEqual(['approved', 'approved']);
    });

    it('POST /v1/test/submerchants/:id/reject rejects a submerchant in review, with a reason or without', async () => {
      const seeded = await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 1 });
      await api.post(`/v1/submerchants/${seeded.id}/submit-for-review`);
      const rejected = await api.post(`/v1/test/submerchants/${seeded.id}/reject`, { reason: 'Blurry ID' });
      expect(rejected.status).toBe(200);
      expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Blurry ID' });
      const twice = await api.post(`/v1/test/submerchants/${seeded.id}/reject`);
      expect(twice.status).toBe(409);
      await api.post(`/v1/submerchants/${seeded.id}/request-resubmission`);
      await api.post(`/v1/submerchants/${seeded.id}/submit-for-review`);
      const bare = await api.post(`/v1/test/submerchants/${seeded.id}/reject`);
      expect(bare.body.data.rejection_reason).toBe('Decided in test mode by the merchant.');
      const unknownField = await api.post(`/v1/test/submerchants/${seeded.id}/reject`, { why: 'x' });
      expect(unknownField.status).toBe(400);
    });

    it('is refused in live mode with 403 TEST_MODE_ONLY, changing nothing', async () => {
      const live = await createMerchant(app.store.db, { name: 'Live Shop', live: true, now: app.clock() });
      const liveApi = client(app, { authorization: basic(live.secretKey) });
      const created = await liveApi.post('/v1/submerchants', submerchantBody());
      const id = created.body.data.id;
      await liveApi.post(`/v1/submerchants/${id}/legal-representatives`, representativeBody());
      await liveApi.post(`/v1/submerchants/${id}/submit-for-review`);
      for (const action of ['approve', 'reject']) {
        const refused = await liveApi.post(`/v1/test/submerchants/${id}/${action}`);
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('TEST_MODE_ONLY');
      }
      expect((await liveApi.get(`/v1/submerchants/${id}`)).body.data.status).toBe('pending_review');
      // Another merchant's submerchant is not found, in test mode too.
      expect((await api.post(`/v1/test/submerchants/${id}/approve`)).status).toBe(404);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { SUBMERCHANT_EVENT_TYPES } from '../../../src/server/submerchants/index.js';
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
  submerchantBody,
} from '../../helpers/submerchants.js';
import { startOnboarding } from './fixtures.js';

describe.each(DIALECTS)('%s: review', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let merchant: TestMerchant;
  let api: Client;
  let operator: Client;
  let operatorKeyId: string;

  beforeAll(async () => {
    ({ app, clock, merchant, api } = await startOnboarding(dialect));
    operator = client(app, await createTestOperator(app));
    operatorKeyId = (await app.store.db.selectFrom('operator_keys').select('id').executeTakeFirstOrThrow())
      .id;
  });

  const statusOf = async (id: string) => (await api.get(`/v1/submerchants/${id}`)).body.data.status;

  // Events are ordered by their time: setup steps leave a millisecond between them so that order is observable.
  const tick = () => clock.advance(1);

  const companyWithRepresentative = async () => {
    const submerchant = (await api.post('/v1/submerchants', submerchantBody())).body.data;
    tick();
    await api.post(`/v1/submerchants/${submerchant.id}/legal-representatives`, representativeBody());
    tick();
    return submerchant.id as string;
  };

  /** A submerchant moved to the given status through the API. */
  const inStatus = async (status: 'pending' | 'pending_review' | 'active' | 'rejected') => {
    const id = await companyWithRepresentative();
    if (status === 'pending') return id;
    expect((await api.post(`/v1/submerchants/${id}/submit-for-review`)).status).toBe(200);
    tick();
    if (status === 'active')
      expect((await operator.post(`/v1/operator/submerchants/${id}/approve`)).status).toBe(200);
    if (status === 'rejected') {
      expect(
        (await operator.post(`/v1/operator/submerchants/${id}/reject`, { reason: 'Contract unreadable' }))
          .status,
      ).toBe(200);
    }
    tick();
    return id;
  };

  const eventsOf = async (submerchantId: string) => {
    const rows = await app.store.db
      .selectFrom('events')
      .selectAll()
      .where('merchant_id', '=', merchant.id)
      .orderBy('created_at')
      .execute();
    return rows
      .map((row) => ({ type: row.type, data: JSON.parse(row.data) }))
      .filter(
        (event) => (event.data.submerchant?.id ?? event.data.document?.submerchant_id) === submerchantId,
      );
  };

  describe('submit for review', () => {
    it('moves a pending company with a representative to pending_review', async () => {
      const id = await companyWithRepresentative();
      clock.set('2026-11-21T12:00:01.000Z');
      const { status, body } = await api.post(`/v1/submerchants/${id}/submit-for-review`);
      expect(status).toBe(200);
      expect(body.message).toBe('Submerchant submitted for review.');
      expect(body.data).toMatchObject({ status: 'pending_review', submitted_at: '2026-11-21T12:00:01.000Z' });
      expect(body.data.status_history.at(-1)).toEqual({
        from: 'pending',
        to: 'pending_review',
        actor: 'merchant',
        actor_id: merchant.id,
        at: '2026-11-21T12:00:01.000Z',
      });
      clock.set('2026-11-21T12:00:00.000Z');
    });

    it('refuses a company without a representative with 422 REPRESENTATIVE_REQUIRED; it stays pending', async () => {
      const id = (await api.post('/v1/submerchants', submerchantBody())).body.data.id;
      const { status, body } = await api.post(`/v1/submerchants/${id}/submit-for-review`);
      expect(status).toBe(422);
      expect(body.error.code).toBe('REPRESENTATIVE_REQUIRED');
      expect(await statusOf(id)).toBe('pending');
      expect((await eventsOf(id)).map((e) => e.type)).toEqual(['submerchant.created']);
    });

    it('does not block on the other requirements: they inform', async () => {
      const id = await companyWithRepresentative();
      const before = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements;
      expect(before.ready_for_review).toBe(false);
      expect((await api.post(`/v1/submerchants/${id}/submit-for-review`)).status).toBe(200);
    });

    it('takes a person (pf) through the whole flow without any representative', async () => {
      const id = (await api.post('/v1/submerchants', personSubmerchantBody())).body.data.id;
      await api.post(`/v1/submerchants/${id}/addresses`, addressBody());
      for (const type of ['front_id', 'back_id', 'selfie_with_id', 'proof_of_residence']) {
        await api.post(`/v1/submerchants/${id}/documents`, documentBody(type));
      }
      expect((await api.get(`/v1/submerchants/${id}`)).body.data.requirements.ready_for_review).toBe(true);
      expect((await api.post(`/v1/submerchants/${id}/submit-for-review`)).body.data.status).toBe(
        'pending_review',
      );
      const approved = await operator.post(`/v1/operator/submerchants/${id}/approve`);
      expect(approved.body.data.status).toBe('active');
    });
  });

  describe('every refused transition is 409 INVALID_STATE and changes nothing', () => {
    const routes = {
      submit: (id: string) => api.post(`/v1/submerchants/${id}/submit-for-review`),
      approve: (id: string) => operator.post(`/v1/operator/submerchants/${id}/approve`),
      reject: (id: string) => operator.post(`/v1/operator/submerchants/${id}/reject`, { reason: 'No' }),
      resubmit: (id: string) => api.post(`/v1/submerchants/${id}/request-resubmission`),
      edit: (id: string) => api.patch(`/v1/submerchants/${id}`, { trade_name: 'Edited' }),
    };
    it.each([
      ['submit', 'pending_review'],
      ['submit', 'active'],
      ['submit', 'rejected'],
      ['approve', 'pending'],
      ['approve', 'active'],
      ['approve', 'rejected'],
      ['reject', 'pending'],
      ['reject', 'active'],
      ['reject', 'rejected'],
      ['resubmit', 'pending'],
      ['resubmit', 'pending_review'],
      ['resubmit', 'active'],
      ['edit', 'pending_review'],
      ['edit', 'active'],
      ['edit', 'rejected'],
    ] as const)('%s from %s', async (route, from) => {
      const id = await inStatus(from);
      const before = await eventsOf(id);
      const { status, body } = await routes[route](id);
      expect(status).toBe(409);
      expect(body.error.code).toBe('INVALID_STATE');
      expect(body.message).toContain(from);
      expect(await statusOf(id)).toBe(from);
      expect(await eventsOf(id)).toHaveLength(before.length);
    });
  });

  it('rejects with a reason, then resubmission returns it to pending for editing and a new review', async () => {
    const id = await inStatus('pending_review');
    const noReason = await operator.post(`/v1/operator/submerchants/${id}/reject`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details[0].field).toBe('reason');

    tick();
    const rejected = await operator.post(`/v1/operator/submerchants/${id}/reject`, {
      reason: 'CNPJ card is outdated',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      rejection_reason: 'CNPJ card is outdated',
    });

    tick();
    const back = await api.post(`/v1/submerchants/${id}/request-resubmission`);
    expect(back.status).toBe(200);
    expect(back.body.data.status).toBe('pending');
    tick();
    expect((await api.patch(`/v1/submerchants/${id}`, { trade_name: 'Corrigida' })).status).toBe(200);
    tick();
    expect((await api.post(`/v1/submerchants/${id}/submit-for-review`)).status).toBe(200);
    tick();
    const approved = await operator.post(`/v1/operator/submerchants/${id}/approve`);
    expect(approved.body.data).toMatchObject({
      status: 'active',
      rejection_reason: null,
      trade_name: 'Corrigida',
    });

    expect(
      approved.body.data.status_history.map(
        (e: { from: string; to: string; actor: string; actor_id: string; reason?: string }) => [
          e.from,
          e.to,
          e.actor,
          e.actor_id,
          e.reason,
        ],
      ),
    ).toEqual([
      [null, 'pending', 'merchant', merchant.id, undefined],
      ['pending', 'pending_review', 'merchant', merchant.id, undefined],
      ['pending_review', 'rejected', 'operator', operatorKeyId, 'CNPJ card is outdated'],
      ['rejected', 'pending', 'merchant', merchant.id, undefined],
      ['pending', 'pending_review', 'merchant', merchant.id, undefined],
      ['pending_review', 'active', 'operator', operatorKeyId, undefined],
    ]);

    const types = (await eventsOf(id)).map((event) => event.type);
    expect(types).toEqual([
      'submerchant.created',
      'submerchant.updated', // the representative
      'submerchant.submitted_for_review',
      'submerchant.rejected',
      'submerchant.resubmission_requested',
      'submerchant.updated', // the edit
      'submerchant.submitted_for_review',
      'submerchant.approved',
    ]);
    for (const type of types) expect(SUBMERCHANT_EVENT_TYPES).toContain(type);
    const rejectedEvent = (await eventsOf(id)).find((event) => event.type === 'submerchant.rejected')!;
    expect(rejectedEvent.data.submerchant).toMatchObject({ id, status: 'rejected' });
    expect(rejectedEvent.data.status_change).toMatchObject({
      from: 'pending_review',
      to: 'rejected',
      actor: 'operator',
      reason: 'CNPJ card is outdated',
    });
  });

  it('lets only one of two racing decisions win', async () => {
    const id = await inStatus('pending_review');
    const [approve, reject] = await Promise.all([
      operator.post(`/v1/operator/submerchants/${id}/approve`),
      operator.post(`/v1/operator/submerchants/${id}/reject`, { reason: 'Late' }),
    ]);
    expect([approve.status, reject.status].sort()).toEqual([200, 409]);
    const history = (await operator.get(`/v1/operator/submerchants/${id}`)).body.data.status_history;
    expect(history.filter((e: { from: string }) => e.from === 'pending_review')).toHaveLength(1);
  });

  describe('document review by the operator', () => {
    const upload = async (id: string, type = 'cnpj_card', extra: Record<string, unknown> = {}) => {
      const document = (await api.post(`/v1/submerchants/${id}/documents`, documentBody(type, extra))).body
        .data;
      tick();
      return document;
    };
    const docAction = async (id: string, documentId: string, action: string, body?: unknown) => {
      const result = await operator.post(
        `/v1/operator/submerchants/${id}/documents/${documentId}/${action}`,
        body,
      );
      tick();
      return result;
    };

    it('approves, rejects with a reason and expires, recording who and when and emitting events', async () => {
      const id = await companyWithRepresentative();
      const a = await upload(id, 'cnpj_card');
      const b = await upload(id, 'social_contract');
      const c = await upload(id, 'proof_of_residence_company');
      clock.set('2026-11-21T12:00:01.000Z');

      const approved = await docAction(id, a.id, 'approve');
      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({
        status: 'approved',
        reviewed_at: '2026-11-21T12:00:01.000Z',
      });
      expect(approved.body.data.status_history.at(-1)).toEqual({
        from: 'pending',
        to: 'approved',
        actor: 'operator',
        actor_id: operatorKeyId,
        at: '2026-11-21T12:00:01.000Z',
      });

      expect((await docAction(id, b.id, 'reject', {})).status).toBe(400);
      const rejected = await docAction(id, b.id, 'reject', { reason: 'Missing last page' });
      expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Missing last page' });
      expect(rejected.body.data.status_history.at(-1).reason).toBe('Missing last page');

      const expired = await docAction(id, c.id, 'expire');
      expect(expired.body.data.status).toBe('expired');

      const items = (await api.get(`/v1/submerchants/${id}`)).body.data.requirements.items;
      const byType = Object.fromEntries(
        items
          .filter((i: { document_type?: string }) => i.document_type)
          .map((i: { document_type: string; code: string }) => [i.document_type, i.code]),
      );
      expect(byType.cnpj_card).toBeUndefined();
      expect(byType.social_contract).toBe('DOCUMENT_REJECTED');
      expect(byType.proof_of_residence_company).toBe('DOCUMENT_EXPIRED');

      const types = (await eventsOf(id))
        .map((event) => event.type)
        .filter((type) => type.startsWith('document.'));
      expect(types).toEqual([
        'document.created',
        'document.created',
        'document.created',
        'document.approved',
        'document.rejected',
        'document.expired',
      ]);
      clock.set('2026-11-21T12:00:00.000Z');
    });

    it.each([
      ['approve', 'approved', 409],
      ['approve', 'rejected', 409],
      ['approve', 'expired', 409],
      ['reject', 'approved', 200],
      ['reject', 'rejected', 409],
      ['reject', 'expired', 409],
      ['expire', 'approved', 200],
      ['expire', 'rejected', 409],
      ['expire', 'expired', 409],
    ] as const)('%s a document that is %s: %i', async (action, from, expected) => {
      const id = await companyWithRepresentative();
      const document = await upload(id);
      const toState = { approved: 'approve', rejected: 'reject', expired: 'expire' } as const;
      await docAction(id, document.id, toState[from], { reason: 'setup' });
      const { status, body } = await docAction(id, document.id, action, { reason: 'again' });
      expect(status).toBe(expected);
      if (expected === 409) expect(body.error.code).toBe('INVALID_STATE');
    });

    it('refuses decisions on a replaced document and on one past its expires_at', async () => {
      const id = await companyWithRepresentative();
      const old = await upload(id);
      await upload(id);
      const onReplaced = await docAction(id, old.id, 'approve');
      expect(onReplaced.status).toBe(409);
      expect(onReplaced.body.message).toMatch(/replaced/);
      const stale = await upload(id, 'social_contract', { expires_at: '2026-01-01' });
      const onExpired = await docAction(id, stale.id, 'approve');
      expect(onExpired.status).toBe(409);
      expect(onExpired.body.message).toMatch(/expires_at .* has passed/);
    });

    it('answers 404 for a document of another submerchant and for an unknown submerchant', async () => {
      const id = await companyWithRepresentative();
      const other = await companyWithRepresentative();
      const document = await upload(other);
      expect((await docAction(id, document.id, 'approve')).status).toBe(404);
      expect((await docAction('9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', document.id, 'approve')).status).toBe(
        404,
      );
      expect(
        (await operator.post('/v1/operator/submerchants/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d/approve'))
          .status,
      ).toBe(404);
    });
  });

  describe('operator access', () => {
    it("reads and lists any merchant's submerchants, filtered by merchant and status", async () => {
      const other = await createTestMerchant(app, { name: 'Other' });
      const theirs = (await client(app, other.secret).post('/v1/submerchants', submerchantBody())).body.data;
      const read = await operator.get(`/v1/operator/submerchants/${theirs.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: theirs.id, merchant_id: other.id });
      const list = await operator.get(`/v1/operator/submerchants?merchant_id=${other.id}`);
      expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([theirs.id]);
      const reviewing = await operator.get('/v1/operator/submerchants?status=pending_review&limit=100');
      expect(reviewing.body.data.every((s: { status: string }) => s.status === 'pending_review')).toBe(true);
    });

    it('needs an operator key: a merchant key is 403 and cannot approve its own submerchant', async () => {
      const id = await inStatus('pending_review');
      const self = await api.post(`/v1/operator/submerchants/${id}/approve`);
      expect(self.status).toBe(403);
      expect(await statusOf(id)).toBe('pending_review');
      expect((await client(app, {}).post(`/v1/operator/submerchants/${id}/approve`)).status).toBe(401);
    });
  });
});

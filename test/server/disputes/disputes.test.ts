import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { createMerchant } from '../../../src/server/merchants/service.js';
import {
  basic,
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';

const DAY = 86_400_000;

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock();
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object, who = merchant) =>
    app.inject({ method, url, headers: who.secret, ...(payload && { payload }) });

  async function captured(card: string = CARDS.approved, visitorId = randomUUID().replaceAll('-', '')) {
    const { response } = await quickCharge(app, merchant, {
      card: { number: card },
      session: { visitorId },
      body: { customer: { name: 'Ana Souza', email: 'approved@risk.test', document: '12345678909' } },
    });
    expect(response.json().data.status).toBe('captured');
    return response.json().data;
  }

  async function disputed(reason = 'fraud', card?: string) {
    const charge = await captured(card);
    const opened = await call('POST', `/v1/test/charges/${charge.id}/dispute`, { reason });
    expect(opened.statusCode, opened.body).toBe(201);
    return { charge, dispute: opened.json().data };
  }

  const eventTypes = async (disputeId: string) => {
    const listed = await call('GET', '/v1/events?limit=100');
    return (listed.json().data as { type: string; data: { id: string } }[])
      .filter((event) => event.data.id === disputeId)
      .map((event) => event.type)
      .sort();
  };

  test('the simulated acquirer reports a chargeback: a dispute with the network’s code and a deadline', async () => {
    const { charge, dispute } = await disputed('fraud');
    expect(dispute).toMatchObject({
      charge_id: charge.id,
      amount: charge.amount,
      currency: 'BRL',
      reason: 'fraud',
      network_reason_code: '10.4',
      status: 'needs_response',
      evidence_due_by: new Date(clock.now().getTime() + 10 * DAY).toISOString(),
      evidence: null,
      closed_at: null,
    });
    expect(await eventTypes(dispute.id)).toEqual(['dispute.created']);
    expect((await disputed('fraud', CARDS.mastercard)).dispute.network_reason_code).toBe('4837');
    expect((await disputed('not_received', CARDS.mastercard)).dispute.network_reason_code).toBe('4855');
  });

  test('GET /v1/disputes/:id offers the fraud session’s evidence ready-made', async () => {
    const visitorId = randomUUID().replaceAll('-', '');
    const charge = await captured(CARDS.approved, visitorId);
    const opened = await call('POST', `/v1/test/charges/${charge.id}/dispute`, { reason: 'fraud' });
    const read = await call('GET', `/v1/disputes/${opened.json().data.id}`);
    expect(read.statusCode).toBe(200);
    const suggested = read.json().data.suggested_evidence;
    expect(suggested.device).toMatchObject({ visitor_id: visitorId, browser: 'Chrome' });
    expect(suggested.ip_address).toBeTypeOf('string');
    expect(suggested.fraud_analysis).toEqual(charge.fraud_analysis);
    expect(suggested.text).toContain(visitorId);
    expect(suggested.text).toContain(charge.id);
  });

  test('lists newest first with the list conventions and a status filter; another merchant sees none', async () => {
    const { dispute } = await disputed('duplicate');
    const listed = await call('GET', '/v1/disputes?status=needs_response&limit=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0].id).toBe(dispute.id);
    expect(listed.json().data.every((d: { status: string }) => d.status === 'needs_response')).toBe(true);
    expect(listed.json().pagination).toMatchObject({ page: 1, limit: 100 });
    expect((await call('GET', '/v1/disputes?status=open')).statusCode).toBe(400);
    expect((await call('GET', '/v1/disputes?limit=101')).statusCode).toBe(400);
    const stranger = await createTestMerchant(app, { name: 'Stranger' });
    expect((await call('GET', `/v1/disputes/${dispute.id}`, undefined, stranger)).statusCode).toBe(404);
    expect((await call('GET', '/v1/disputes', undefined, stranger)).json().data).toEqual([]);
  });

  test('evidence is taken once: under_review; a second is 409; bad evidence is 400', async () => {
    const { dispute } = await disputed();
    const url = `/v1/disputes/${dispute.id}/evidence`;
    for (const body of [
      { text: '  ' },
      { text: 'x', document_urls: ['http://insecure.example.com/a'] },
      {},
    ]) {
      const refused = await call('POST', url, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    const submitted = await call('POST', url, {
      text: 'The buyer signed for the parcel.',
      document_urls: ['https://shop.example.com/receipts/1.pdf'],
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data).toMatchObject({
      status: 'under_review',
      evidence: {
        text: 'The buyer signed for the parcel.',
        document_urls: ['https://shop.example.com/receipts/1.pdf'],
      },
      evidence_submitted_at: clock.now().toISOString(),
    });
    const again = await call('POST', url, { text: 'More.' });
    expect(again.statusCode).toBe(409);
    expect(await eventTypes(dispute.id)).toEqual(['dispute.created', 'dispute.updated']);
  });

  test('after evidence_due_by evidence is 422; the network decides: winning_evidence wins, else lost', async () => {
    const late = await disputed();
    const won = await disputed();
    const lost = await disputed();
    await call('POST', `/v1/disputes/${won.dispute.id}/evidence`, { text: 'Delivered. winning_evidence' });
    await call('POST', `/v1/disputes/${lost.dispute.id}/evidence`, { text: 'Delivered.' });
    clock.advance(10 * DAY);
    const overdue = await call('POST', `/v1/disputes/${late.dispute.id}/evidence`, { text: 'Too late.' });
    expect(overdue.statusCode).toBe(422);
    expect(overdue.json().error.code).toBe('DISPUTE_EVIDENCE_DEADLINE_PASSED');

    const close = (id: string) => call('POST', `/v1/test/disputes/${id}/close`);
    expect((await close(won.dispute.id)).json().data).toMatchObject({
      status: 'won',
      closed_at: clock.now().toISOString(),
    });
    expect((await close(lost.dispute.id)).json().data.status).toBe('lost');
    expect((await close(late.dispute.id)).json().data.status).toBe('lost');
    expect((await close(won.dispute.id)).statusCode).toBe(409);
    expect(await eventTypes(won.dispute.id)).toEqual([
      'dispute.closed',
      'dispute.created',
      'dispute.updated',
    ]);
  });

  test('only a captured charge can be disputed, once; live keys cannot use the simulated network', async () => {
    const { charge } = await disputed();
    const twice = await call('POST', `/v1/test/charges/${charge.id}/dispute`, { reason: 'fraud' });
    expect(twice.statusCode).toBe(409);
    const { response } = await quickCharge(app, merchant, { card: { number: CARDS.declined } });
    const failed = await call('POST', `/v1/test/charges/${response.json().data.id}/dispute`, {
      reason: 'fraud',
    });
    expect(failed.statusCode).toBe(422);
    expect(failed.json().error.code).toBe('CHARGE_NOT_DISPUTABLE');
    expect(
      (await call('POST', `/v1/test/charges/${randomUUID()}/dispute`, { reason: 'fraud' })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/v1/test/charges/${charge.id}/dispute`, { reason: 'because' })).statusCode,
    ).toBe(400);

    const live = await createMerchant(app.store.db, { name: 'Live', live: true, now: app.clock() });
    const liveKey = { authorization: basic(live.secretKey) };
    const refused = await app.inject({
      method: 'POST',
      url: `/v1/test/charges/${charge.id}/dispute`,
      headers: liveKey,
      payload: { reason: 'fraud' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('TEST_MODE_ONLY');
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type Charge,
  type LegalRepresentativeParams,
  type SubmerchantAddressParams,
  type SubmerchantCreateParams,
  type SubmerchantDocumentParams,
  type Vigia,
  VigiaApiError,
} from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { createTestOperator, DIALECTS, type TestMerchant } from '../helpers/app.js';
import {
  CARDS,
  chargeBody,
  createFraudSession,
  createToken,
  seedCharges,
  VALID_CNPJ,
} from '../helpers/charges.js';
import { addressBody, documentBody, representativeBody, submerchantBody } from '../helpers/submerchants.js';
import { clientFor, startListeningService } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let vigia: Vigia;

  beforeAll(async () => {
    const service = await startListeningService(dialect);
    app = service.app;
    merchant = service.merchant;
    vigia = clientFor(merchant, service.baseUrl);
  });

  /** A charge through the client from a token and a fraud session the browser SDK would have made. */
  async function charge(card: string = CARDS.approved, idempotencyKey?: string): Promise<Charge> {
    const token = await createToken(app, merchant, { number: card });
    const sessionId = await createFraudSession(app, merchant);
    const body = chargeBody(token, sessionId) as Parameters<Vigia['charges']['create']>[0];
    return vigia.charges.create(body, idempotencyKey ? { idempotencyKey } : {});
  }

  test('charges.review decides a held charge; disputes list, retrieve and take evidence once', async () => {
    // Its own card (Amex) and buyer: the fraud dispute below labels both, which holds later charges with them.
    const token = await createToken(app, merchant, { number: CARDS.amex, cvv: '1234' });
    const held = await vigia.charges.create({
      ...(chargeBody(token, null) as Parameters<Vigia['charges']['create']>[0]),
      customer: { name: 'Ana Souza', email: 'review@risk.test', document: VALID_CNPJ },
    });
    expect(held.status).toBe('in_review');
    const approved = await vigia.charges.review(held.id, { decision: 'approve', note: 'Known buyer.' });
    expect(approved).toMatchObject({
      status: 'captured',
      review: { decision: 'approve', closed_by: 'api_key' },
    });
    const again = await vigia.charges
      .review(held.id, { decision: 'reject' })
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 409, code: 'INVALID_STATE' });

    const opened = await app.inject({
      method: 'POST',
      url: `/v1/test/charges/${approved.id}/dispute`,
      headers: merchant.secret,
      payload: { reason: 'fraud' },
    });
    const disputeId = opened.json().data.id as string;
    const page = await vigia.disputes.list({ status: 'needs_response' });
    expect(page.data.map((dispute) => dispute.id)).toContain(disputeId);
    const dispute = await vigia.disputes.retrieve(disputeId);
    expect(dispute.suggested_evidence?.review?.decision).toBe('approve');
    const answered = await vigia.disputes.submitEvidence(disputeId, {
      text: dispute.suggested_evidence?.text ?? 'Delivered.',
    });
    expect(answered.status).toBe('under_review');
    const twice = await vigia.disputes
      .submitEvidence(disputeId, { text: 'More.' })
      .catch((error: unknown) => error);
    expect(twice).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });

  test('charges: create, get, refund; a failed charge resolves, a refused one throws a typed error', async () => {
    const captured = await charge();
    expect(captured).toMatchObject({ status: 'captured', amount: 1990, card: { last4: '1111' } });
    expect(captured.fraud_analysis.status).toBe('approved');
    expect(await vigia.charges.get(captured.id)).toEqual(captured);

    const declined = await charge(CARDS.declined);
    expect(declined).toMatchObject({ status: 'failed', failure_code: 'card_declined' });

    const refunded = await vigia.charges.refund(captured.id);
    expect(refunded.status).toBe('refunded');
    expect(refunded.refunded_at).not.toBeNull();
    // Refunding twice is a state error, not a retry: one attempt, the service's code and request id.
    const again = await vigia.charges.refund(captured.id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(VigiaApiError);
    expect(again).toMatchObject({ status: 409, code: 'INVALID_STATE', attempts: 1 });
    expect((again as VigiaApiError).requestId).toMatch(/\S/);

    const token = await createToken(app, merchant);
    const unknownSession = await vigia.charges
      .create(chargeBody(token, randomUUID()) as Parameters<Vigia['charges']['create']>[0])
      .catch((error: unknown) => error);
    expect(unknownSession).toMatchObject({ status: 422, code: 'FRAUD_SESSION_NOT_FOUND' });

    const invalid = await vigia.charges
      .create({ ...(chargeBody(token, null) as Parameters<Vigia['charges']['create']>[0]), amount: -5 })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((invalid as VigiaApiError).details.map((detail) => detail.field)).toContain('amount');

    const missing = await vigia.charges.get(randomUUID()).catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  test('charges.create with the caller’s Idempotency-Key answers the same charge twice, charging once', async () => {
    const token = await createToken(app, merchant);
    const sessionId = await createFraudSession(app, merchant);
    const body = chargeBody(token, sessionId) as Parameters<Vigia['charges']['create']>[0];
    const key = `order-${randomUUID()}`;
    const first = await vigia.charges.create(body, { idempotencyKey: key });
    const second = await vigia.charges.create(body, { idempotencyKey: key });
    expect(second).toEqual(first);
    const reused = await vigia.charges
      .create({ ...body, amount: 2990 }, { idempotencyKey: key })
      .catch((error: unknown) => error);
    expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  test('fraudSessions.get reads what the checkout collected and that a charge consumed it', async () => {
    const token = await createToken(app, merchant);
    const sessionId = await createFraudSession(app, merchant);
    expect(await vigia.fraudSessions.get(sessionId)).toMatchObject({ id: sessionId, status: 'open' });
    await vigia.charges.create(chargeBody(token, sessionId) as Parameters<Vigia['charges']['create']>[0]);
    expect(await vigia.fraudSessions.get(sessionId)).toMatchObject({ status: 'consumed' });
  });

  test('lists: await gives one page; for await walks every page, newest first, each item once', async () => {
    const { app: listApp, merchant: listMerchant, baseUrl } = await startListeningService(dialect);
    await seedCharges(listApp, listMerchant.id, 45, {
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-31T00:00:00.000Z',
    });
    const client = clientFor(listMerchant, baseUrl);

    const page = await client.charges.list({ limit: 10, page: 2 });
    expect(page.pagination).toEqual({ page: 2, limit: 10, total: 45, totalPages: 5 });
    expect(page.data).toHaveLength(10);

    const seen: Charge[] = [];
    for await (const item of client.charges.list({ limit: 10 })) seen.push(item);
    expect(seen).toHaveLength(45);
    expect(new Set(seen.map((item) => item.id)).size).toBe(45);
    const times = seen.map((item) => item.created_at);
    expect(times).toEqual([...times].sort().reverse());

    // Filters apply to every page; the default page size when iterating is 100 (one request here).
    const january = [];
    for await (const item of client.charges.list({ search: 'customer 4', date_to: '2026-01-31' })) {
      january.push(item.customer.name);
    }
    expect(january.sort()).toEqual(['Customer 4', ...Array.from({ length: 5 }, (_, i) => `Customer 4${i}`)]);

    const bad = await client.charges.list({ limit: 500 }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  test('submerchants: create, list, get, update, representatives, documents, addresses, submit, resubmit', async () => {
    const created = await vigia.submerchants.create(submerchantBody() as SubmerchantCreateParams);
    expect(created).toMatchObject({ status: 'pending', entity_type: 'pj' });
    const updated = await vigia.submerchants.update(created.id, { trade_name: 'Loja Nova' });
    expect(updated.trade_name).toBe('Loja Nova');
    const listed = await vigia.submerchants.list({ search: 'Loja Nova' });
    expect(listed.data.map((item) => item.id)).toEqual([created.id]);

    const representative = await vigia.submerchants.representatives.create(
      created.id,
      representativeBody() as LegalRepresentativeParams,
    );
    expect(await vigia.submerchants.representatives.get(created.id, representative.id)).toEqual(
      representative,
    );
    expect((await vigia.submerchants.representatives.list(created.id)).data).toHaveLength(1);

    const document = await vigia.submerchants.documents.create(
      created.id,
      documentBody('social_contract') as SubmerchantDocumentParams,
    );
    expect(document).toMatchObject({ type: 'social_contract', status: 'pending' });
    expect(await vigia.submerchants.documents.get(created.id, document.id)).toEqual(document);
    const documents = [];
    for await (const item of vigia.submerchants.documents.list(created.id)) documents.push(item.id);
    expect(documents).toEqual([document.id]);

    const address = await vigia.submerchants.addresses.create(
      created.id,
      addressBody() as SubmerchantAddressParams,
    );
    const moved = await vigia.submerchants.addresses.update(created.id, address.id, { number: '2000' });
    expect(moved.number).toBe('2000');
    expect((await vigia.submerchants.addresses.list(created.id)).data.map((item) => item.id)).toEqual([
      address.id,
    ]);
    await vigia.submerchants.addresses.delete(created.id, address.id);
    expect((await vigia.submerchants.addresses.list(created.id)).pagination.total).toBe(0);
    await vigia.submerchants.addresses.create(created.id, addressBody() as SubmerchantAddressParams);

    const submitted = await vigia.submerchants.submitForReview(created.id);
    expect(submitted.status).toBe('pending_review');
    const rejected = await app.inject({
      method: 'POST',
      url: `/v1/operator/submerchants/${created.id}/reject`,
      headers: await createTestOperator(app),
      payload: { reason: 'The social contract is illegible.' },
    });
    expect(rejected.statusCode).toBe(200);
    const reopened = await vigia.submerchants.requestResubmission(created.id);
    expect(reopened.status).toBe('pending');

    await vigia.submerchants.representatives.delete(created.id, representative.id);
    const detail = await vigia.submerchants.get(created.id);
    expect(detail.legal_representatives).toEqual([]);
    expect(detail.addresses).toHaveLength(1);
    // Submitting again without a representative: the service's business rule, as a typed error.
    const refused = await vigia.submerchants.submitForReview(created.id).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 422, code: 'REPRESENTATIVE_REQUIRED', attempts: 1 });
  });

  test('webhookEndpoints and deliveries: create (secret once), list, get, update, regenerate, deliveries, retry, delete', async () => {
    const endpoint = await vigia.webhookEndpoints.create({
      url: 'http://127.0.0.1:9/hooks',
      events: ['charge.captured'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const read = await vigia.webhookEndpoints.get(endpoint.id);
    expect(read).toMatchObject({ id: endpoint.id, status: 'active' });
    expect(read).not.toHaveProperty('secret');
    const paused = await vigia.webhookEndpoints.update(endpoint.id, { status: 'paused' });
    expect(paused.status).toBe('paused');
    await vigia.webhookEndpoints.update(endpoint.id, { status: 'active' });
    const listed = [];
    for await (const item of vigia.webhookEndpoints.list({ search: '127.0.0.1:9' })) listed.push(item.id);
    expect(listed).toEqual([endpoint.id]);
    const regenerated = await vigia.webhookEndpoints.regenerateSecret(endpoint.id);
    expect(regenerated.secret).toMatch(/^whsec_/);
    expect(regenerated.secret).not.toBe(endpoint.secret);

    // A card of its own: the file's many 4111 charges would hold this one for review (velocity), with no capture.
    const captured = await charge('5067224275805500');
    expect(captured.status).toBe('captured');
    const deliveries = await vigia.deliveries.list(endpoint.id);
    expect(deliveries.data).toHaveLength(1);
    const [delivery] = deliveries.data;
    expect(delivery).toMatchObject({
      event_type: 'charge.captured',
      status: 'pending',
      endpoint_id: endpoint.id,
    });
    expect(await vigia.deliveries.get(delivery!.id)).toMatchObject({ id: delivery!.id });
    const retried = await vigia.deliveries.retry(delivery!.id);
    expect(retried.id).toBe(delivery!.id);
    expect(captured.status).toBe('captured');

    await vigia.webhookEndpoints.delete(endpoint.id);
    const gone = await vigia.webhookEndpoints.get(endpoint.id).catch((error: unknown) => error);
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  test('a public key or a missing base URL is refused before any request', () => {
    expect(() => clientFor({ ...merchant, secretKey: merchant.publicKey }, 'http://127.0.0.1:1')).toThrow(
      /secret key/,
    );
    expect(() => clientFor(merchant, 'not a url')).toThrow(/baseUrl/);
  });
});

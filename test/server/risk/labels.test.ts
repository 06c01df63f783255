import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { createTestMerchant, DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { approvedCard, buyer, liftRateLimits, quickCharge } from '../../helpers/charges.js';

const LABEL_CODES = ['FRAUD_LABEL_AT_MERCHANT', 'FRAUD_LABEL_ON_PLATFORM'];

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;
  let other: TestMerchant;
  let n = 0;

  beforeAll(async () => {
    ({ app, merchant: shop } = await startAppWithMerchant(dialect));
    other = await createTestMerchant(app, { name: 'Other Shop' });
    await liftRateLimits(app, shop);
    await liftRateLimits(app, other);
  });

  /** An analysed checkout; each part fresh unless given. */
  async function checkout(
    who: TestMerchant,
    parts: { card?: string; customer?: ReturnType<typeof buyer>; visitorId?: string } = {},
  ) {
    n += 1;
    const { response } = await quickCharge(app, who, {
      card: { number: parts.card ?? approvedCard(1000 + n) },
      session: { visitorId: parts.visitorId ?? randomUUID().replaceAll('-', '') },
      body: { customer: parts.customer ?? buyer(5000 + n) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  /** A charge held for review (test mode's review@risk.test), its buyer, card and device recorded. */
  async function heldCheckout(parts: { card: string; document: string; visitorId: string }) {
    const { response } = await quickCharge(app, shop, {
      card: { number: parts.card },
      session: { visitorId: parts.visitorId },
      body: { customer: { name: 'Held Buyer', email: 'review@risk.test', document: parts.document } },
    });
    expect(response.json().data.status).toBe('in_review');
    return response.json().data;
  }

  const decide = (id: string, decision: 'approve' | 'reject') =>
    app.inject({
      method: 'POST',
      url: `/v1/charges/${id}/review`,
      headers: shop.secret,
      payload: { decision },
    });

  test('a rejected review labels its card, buyer and device fraud: later charges carry the label, here and elsewhere', async () => {
    const card = approvedCard(1);
    const fraudster = buyer(1);
    const visitorId = randomUUID().replaceAll('-', '');
    const held = await heldCheckout({ card, document: fraudster.document, visitorId });
    expect((await decide(held.id, 'reject')).statusCode).toBe(200);

    const sameCard = await checkout(shop, { card });
    expect(sameCard.fraud_analysis.reasons).toContain('FRAUD_LABEL_AT_MERCHANT');
    expect(sameCard.fraud_analysis.reasons).not.toContain('FRAUD_LABEL_ON_PLATFORM');
    expect(sameCard.status).toBe('in_review');
    const sameBuyer = await checkout(shop, { customer: { ...buyer(2), document: fraudster.document } });
    expect(sameBuyer.fraud_analysis.reasons).toContain('FRAUD_LABEL_AT_MERCHANT');
    const sameDevice = await checkout(shop, { visitorId });
    expect(sameDevice.fraud_analysis.reasons).toContain('FRAUD_LABEL_AT_MERCHANT');

    // At another merchant: the code alone, nothing of the first merchant's charge.
    const elsewhere = await checkout(other, { card });
    expect(elsewhere.fraud_analysis.reasons).toEqual(['FRAUD_LABEL_ON_PLATFORM']);
    expect(elsewhere.fraud_analysis.score).toBe(30);
    expect(elsewhere.status).toBe('in_review');
    expect(JSON.stringify(elsewhere)).not.toContain(held.id);
    expect((await checkout(other, { visitorId })).fraud_analysis.reasons).toContain(
      'FRAUD_LABEL_ON_PLATFORM',
    );

    const stranger = await checkout(other);
    expect(stranger.fraud_analysis.reasons.filter((code: string) => LABEL_CODES.includes(code))).toEqual([]);
  });

  test('an approved review labels not_fraud: nothing is raised', async () => {
    const card = approvedCard(2);
    const visitorId = randomUUID().replaceAll('-', '');
    const held = await heldCheckout({ card, document: buyer(3).document, visitorId });
    expect((await decide(held.id, 'approve')).statusCode).toBe(200);
    const again = await checkout(other, { card, visitorId });
    expect(again.fraud_analysis.reasons.filter((code: string) => LABEL_CODES.includes(code))).toEqual([]);
  });

  test('a fraud dispute labels its charge fraud; a not_received dispute does not', async () => {
    const fraudCard = approvedCard(3);
    const disputed = await checkout(shop, { card: fraudCard });
    const opened = await app.inject({
      method: 'POST',
      url: `/v1/test/charges/${disputed.id}/dispute`,
      headers: shop.secret,
      payload: { reason: 'fraud' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect((await checkout(other, { card: fraudCard })).fraud_analysis.reasons).toContain(
      'FRAUD_LABEL_ON_PLATFORM',
    );

    const honestCard = approvedCard(4);
    const notReceived = await checkout(shop, { card: honestCard });
    await app.inject({
      method: 'POST',
      url: `/v1/test/charges/${notReceived.id}/dispute`,
      headers: shop.secret,
      payload: { reason: 'not_received' },
    });
    const later = await checkout(other, { card: honestCard });
    expect(later.fraud_analysis.reasons.filter((code: string) => LABEL_CODES.includes(code))).toEqual([]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { createFraudSession } from '../../helpers/charges.js';

describe.each(DIALECTS)('%s: the declared ip_address of a session', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  const declared = async (sessionId: string) =>
    (
      await app.inject({ method: 'GET', url: `/v1/fraud/sessions/${sessionId}`, headers: merchant.secret })
    ).json().data.declared;

  it('spec table "setup() sends ip_address": the lookup answer becomes the declared address when it arrives, with when', async () => {
    const sessionId = await createFraudSession(app, merchant, { signals: false });
    expect(await declared(sessionId)).toMatchObject({
      ip_address: null,
      ip_address_source: null,
      ip_address_received_at: null,
    });
    clock.advance(1500);
    const reported = await app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${sessionId}/signals`,
      headers: { ...merchant.public, origin: 'https://shop.example.com' },
      payload: {
        ip_lookup: { status: 'ok', ip_address: '203.0.113.9', duration_ms: 40 },
        profiler_error: 'disabled',
      },
    });
    expect(reported.statusCode).toBe(200);
    expect(await declared(sessionId)).toMatchObject({
      ip_address: '203.0.113.9',
      ip_address_source: 'ip_lookup',
      ip_address_received_at: '2026-11-21T12:00:01.500Z',
    });
  });

  it('an address sent at creation is the declared one, received with the session', async () => {
    const sessionId = await createFraudSession(app, merchant, { declared: { ip_address: '198.51.100.2' } });
    expect(await declared(sessionId)).toMatchObject({
      ip_address: '198.51.100.2',
      ip_address_source: 'setup',
      ip_address_received_at: clock.now().toISOString(),
    });
  });

  it('a failed lookup leaves it null', async () => {
    const sessionId = await createFraudSession(app, merchant, {
      signals: { ip_lookup: { status: 'error', duration_ms: 1500 }, profiler_error: 'disabled' },
    });
    expect((await declared(sessionId)).ip_address).toBeNull();
  });
});

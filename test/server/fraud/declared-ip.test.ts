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

  const read = async (sessionId: string) =>
    (
      await app.inject({ method: 'GET', url: `/v1/fraud/sessions/${sessionId}`, headers: merchant.secret })
    ).json().data;
  const declared = async (sessionId: string) => (await read(sessionId)).declared;

  it('spec table "setup() sends ip_address": the lookup answer becomes the declared address when it arrives, with when', async () => {
    const waiting = await createFraudSession(app, merchant, { signals: false });
    expect(await declared(waiting)).toMatchObject({
      ip_address: null,
      ip_address_source: null,
      ip_address_received_at: null,
    });
    const sessionId = await createFraudSession(app, merchant, {
      signals: {
        ip_lookup: { status: 'ok', ip_address: '203.0.113.9', duration_ms: 40 },
        profiler_error: 'disabled',
      },
    });
    const session = await read(sessionId);
    expect(session.signals.received_at > session.created_at).toBe(true);
    expect(session.declared).toMatchObject({
      ip_address: '203.0.113.9',
      ip_address_source: 'ip_lookup',
      ip_address_received_at: session.signals.received_at,
    });
  });

  it('an address sent at creation is the declared one, received with the session', async () => {
    const sessionId = await createFraudSession(app, merchant, { declared: { ip_address: '198.51.100.2' } });
    const session = await read(sessionId);
    expect(session.declared).toMatchObject({
      ip_address: '198.51.100.2',
      ip_address_source: 'setup',
      ip_address_received_at: session.created_at,
    });
  });

  it('a failed lookup leaves it null', async () => {
    const sessionId = await createFraudSession(app, merchant, {
      signals: { ip_lookup: { status: 'error', duration_ms: 1500 }, profiler_error: 'disabled' },
    });
    expect((await declared(sessionId)).ip_address).toBeNull();
  });
});

import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { createBusyMerchant, createSession, readSession, signalsBody } from './fixtures.js';

// The profiler's named detectors (issue 9 part 2) travel in `profiler.detectors`: stored with the report and shown
// to the merchant; a malformed map is refused whole and changes nothing.
describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, {}, createBusyMerchant));
  });

  /** A new session and a report for it (carrying the session's signals token when the service issues one). */
  const report = async (detectors: unknown) => {
    const created = (await createSession(app, merchant)) as { sessionId: string; signals_token?: string };
    const base = signalsBody();
    const body = {
      ...base,
      profiler: { ...base.profiler, detectors },
      ...(created.signals_token && { signals_token: created.signals_token }),
    };
    const response = await app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${created.sessionId}/signals`,
      headers: merchant.public,
      payload: body,
    });
    return { sessionId: created.sessionId, response };
  };

  test('a report with detectors is accepted and the session shows them', async () => {
    const detectors = { emulated_viewport: true, headless_user_agent: false, driver_globals: false };
    const { sessionId, response } = await report(detectors);
    expect(response.statusCode).toBe(200);
    const session = (await readSession(app, merchant, sessionId)).json().data;
    expect(session.signals.profiler.detectors).toEqual(detectors);
  });

  test.each<[string, unknown]>([
    ['a value that is not a boolean', { emulated_viewport: 'yes' }],
    ['a name that is not snake_case', { 'Emulated Viewport': true }],
    [
      'more than 32 detectors',
      Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`detector_${i}`, false])),
    ],
    ['a list instead of a map', ['emulated_viewport']],
  ])('%s is 400 VALIDATION_ERROR and stores nothing', async (_case, detectors) => {
    const { sessionId, response } = await report(detectors);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_ERROR');
    expect((await readSession(app, merchant, sessionId)).json().data.signals).toBeNull();
  });
});

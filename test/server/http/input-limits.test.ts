import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { quickCharge } from '../../helpers/charges.js';
import { createSession, signalsBody, withToken } from '../fraud/fixtures.js';

describe.each(DIALECTS)('hostile input on %s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const lines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    ({ app, merchant } = await startAppWithMerchant(dialect, { logStream, config: { logLevel: 'info' } }));
  });

  it('answers 400 with a field path to JSON nested 5,000 levels deep (issue 12 item 7)', async () => {
    const { sessionId } = await createSession(app, merchant);
    // Written as text: building it as an object and serializing it would overflow the test's own stack.
    const nested = `${'{"a":'.repeat(5000)}"bottom"${'}'.repeat(5000)}`;
    const body = JSON.stringify(withToken(sessionId, signalsBody())).replace(
      '"platform":',
      `"deep":${nested},"platform":`,
    );
    const response = await app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${sessionId}/signals`,
      headers: { ...merchant.public, origin: 'https://shop.example.com', 'content-type': 'application/json' },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details[0].field).toMatch(/^profiler\.components\.deep(\.a)+$/);
    expect(error.details[0].message).toContain('nested deeper than 32 levels');
  });

  it('lists at most 20 validation problems, and says how many there were (issue 12 item 8)', async () => {
    const payload: Record<string, unknown> = { name: 'Loja', document: '1' };
    for (let i = 0; i < 80_000; i++) payload[`k${i}`] = 1;
    const response = await app.inject({
      method: 'POST',
      url: '/v1/submerchants',
      headers: merchant.secret,
      payload,
    });
    expect(response.statusCode).toBe(400);
    const { message, error } = response.json();
    expect(error.details).toHaveLength(20);
    expect(message).toMatch(/: \d{5} problems, the first 20 in error\.details\.$/);
    expect(response.body.length).toBeLessThan(4096);
  });

  it("logs a request's path without its query string (issue 12 item 11)", async () => {
    await quickCharge(app, merchant, { session: false });
    const response = await app.inject({
      method: 'GET',
      url: '/v1/charges?search=maria%40example.com&limit=5',
      headers: merchant.secret,
    });
    expect(response.statusCode).toBe(200);
    const logged = lines.join('\n');
    expect(logged).toContain('"path":"/v1/charges"');
    expect(logged).not.toContain('maria');
    expect(logged).not.toContain('search=');
  });
});

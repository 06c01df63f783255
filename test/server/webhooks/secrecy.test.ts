import { describe, expect, test } from 'vitest';
import { DIALECTS } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  test('the secret appears in no list, get, log line, error or attempt log, and is sealed at rest', async () => {
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const { app, clock, merchant, receiver, worker, emit } = await webhookFixture(dialect, {
      config: { logLevel: 'trace' },
      logStream,
    });
    const responses: string[] = [];
    const call = async (method: string, url: string, payload?: object) => {
      const response = await app.inject({ method: method as 'GET', url, headers: merchant.secret, payload });
      responses.push(response.body);
      return response;
    };

    const created = await app.inject({
      method: 'POST',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
      payload: { url: `${receiver.url}/hooks`, events: ['charge.captured'] },
    });
    const { id, secret: firstSecret } = created.json().data;
    const regenerated = await app.inject({
      method: 'POST',
      url: `/v1/postbacks/endpoints/${id}/secret/regenerate`,
      headers: merchant.secret,
    });
    const secret: string = regenerated.json().data.secret;
    expect(regenerated.body).not.toContain(firstSecret);

    await call('GET', '/v1/postbacks/endpoints');
    await call('GET', '/v1/postbacks/endpoints?search=hooks');
    await call('GET', `/v1/postbacks/endpoints/${id}`);
    await call('PATCH', `/v1/postbacks/endpoints/${id}`, { events: ['charge.captured', 'charge.failed'] });
    await call('PATCH', `/v1/postbacks/endpoints/${id}`, { url: 'ftp://nope' });
    await call('PATCH', `/v1/postbacks/endpoints/${id}`, { secret: 'x' });
    await call('POST', '/v1/postbacks/endpoints', { url: `${receiver.url}/x`, events: ['nope'] });

    // Deliveries: one failure (logged at info), one success (debug), and one with a master key that cannot open it.
    receiver.behaviour = (_request, index) => (index === 0 ? 500 : 200);
    await emit('charge.captured');
    await worker().drain();
    clock.advance(10_000);
    await worker().drain();
    await emit('charge.captured');
    await worker({ masterKey: Buffer.alloc(32, 1) }).drain();
    const deliveries = await call('GET', `/v1/postbacks/endpoints/${id}/deliveries`);
    const attempts = deliveries
      .json()
      .data.flatMap((delivery: { attempts: { error: string | null }[] }) => delivery.attempts);
    expect(
      attempts.some((attempt: { error: string | null }) =>
        /could not be decrypted/.test(attempt.error ?? ''),
      ),
    ).toBe(true);
    const [failedDelivery] = deliveries.json().data;
    await call('GET', `/v1/postbacks/deliveries/${failedDelivery.id}`);
    await call('POST', `/v1/postbacks/deliveries/${failedDelivery.id}/retry`);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('webhook attempt failed; retry scheduled');
    expect(log).toContain('webhook delivered');
    expect(log).toContain('/v1/postbacks/endpoints');
    for (const value of [secret, firstSecret]) {
      const entropy = value.slice('whsec_'.length);
      expect(log).not.toContain(entropy);
      for (const body of responses) expect(body).not.toContain(entropy);
    }
    expect(responses.length).toBeGreaterThan(8);

    const row = await app.store.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    expect(row.secret_sealed).toMatch(/^v1\./);
  });
});

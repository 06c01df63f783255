import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestMerchant, freshDatabaseUrl, startApp } from '../helpers/app.js';

describe('structured logs', () => {
  it('carry a request id and never the Authorization header, keys or bodies', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const app = await startApp(await freshDatabaseUrl('sqlite'), { logStream, config: { logLevel: 'info' } });
    const shop = await createTestMerchant(app);
    await app.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: { ...shop.secret, 'x-request-id': 'req-42' },
      payload: { allowed_hosts: ['very-private-host.example.com'] },
    });
    await app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: { authorization: 'Basic bm90LWEta2V5Og==' },
    });
    const records = lines.map((line) => JSON.parse(line));
    expect(records.some((record) => record.reqId === 'req-42' && record.res?.statusCode === 200)).toBe(true);
    const all = lines.join('\n');
    for (const secret of [shop.secretKey, shop.publicKey, shop.secret.authorization, 'bm90LWEta2V5Og==']) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toContain('very-private-host');
    expect(all.toLowerCase()).not.toContain('authorization');
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestMerchant, freshDatabaseUrl, startApp } from '../helpers/app.js';

function capture() {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n'));
      done();
    },
  });
  return { lines, logStream };
}

describe('development logs', () => {
  it('are readable lines (not JSON) with the request and its status, and still hide keys', async () => {
    const { lines, logStream } = capture();
    const app = await startApp(await freshDatabaseUrl('sqlite'), {
      logStream,
      config: { env: 'development', logLevel: 'info' },
    });
    const shop = await createTestMerchant(app);
    await app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: { ...shop.secret, 'x-request-id': 'req-7' },
    });
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: incoming request GET \/v1\/account /),
    );
    const completed = lines.find((line) => line.includes('request completed'));
    expect(completed).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request completed → 200 in \d+ ms \{"reqId":"req-7"\}$/,
    );
    expect(() => JSON.parse(completed!)).toThrow();
    const all = lines.join('\n');
    for (const secret of [shop.secretKey, shop.secret.authorization]) expect(all).not.toContain(secret);
  });

  it('stay JSON lines outside development', async () => {
    const { lines, logStream } = capture();
    const app = await startApp(await freshDatabaseUrl('sqlite'), {
      logStream,
      config: { env: 'production', logLevel: 'info' },
    });
    await app.inject({ method: 'GET', url: '/health' });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('level');
  });
});

import { describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { ipBucket } from '../../../src/server/http/rate-limit.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { sessionBody } from '../fraud/fixtures.js';

describe('per-IP buckets (issue 12 item 6)', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
  ])('%s counts against %s', (ip, bucket) => {
    expect(ipBucket(ip)).toBe(bucket);
  });
});

/** GET /v1/sdk/config with the merchant's public key, from a buyer at `ip`. */
const sdkConfig = (app: VigiaApp, merchant: TestMerchant, ip: string) =>
  app.inject({ method: 'GET', url: '/v1/sdk/config', remoteAddress: ip, headers: merchant.public });

describe.each(DIALECTS)('public-key traffic on %s (issue 12 item 6)', (dialect) => {
  it('one client rotating addresses inside its IPv6 /64 shares one bucket', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    let status = 0;
    for (let i = 1; i <= 101; i++) {
      status = (await sdkConfig(app, merchant, `2001:db8:77:1::${i.toString(16)}`)).statusCode;
    }
    expect(status).toBe(429);
    const neighbour = await sdkConfig(app, merchant, '2001:db8:77:2::1');
    expect(neighbour.statusCode).toBe(200);
  });

  it("gives each buyer the reset of its own window, though one public key's buyers share a bucket", async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const reset = async (ip: string) =>
      Number((await sdkConfig(app, merchant, ip)).headers['x-ratelimit-reset']);
    const first = await reset('203.0.113.21');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await reset('203.0.113.22');
    expect(later).toBeGreaterThan(first);
    expect(await reset('203.0.113.21')).toBe(first);
    expect(await reset('203.0.113.22')).toBe(later);
  });

  it('caps public-key writes merchant-wide, with their own headers, whatever the buyers’ addresses', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect, { config: { publicWriteLimit: 5 } });
    const session = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/v1/fraud/sessions',
        remoteAddress: `198.51.100.${i}`,
        headers: { ...merchant.public, origin: 'https://shop.example.com' },
        payload: sessionBody(),
      });
    const answers = [];
    for (let i = 1; i <= 6; i++) answers.push(await session(i));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(answers[0]!.headers['x-ratelimit-merchant-limit']).toBe('5');
    expect(answers[0]!.headers['x-ratelimit-merchant-remaining']).toBe('4');
    // Each buyer's own bucket is barely touched.
    expect(answers[5]!.headers['x-ratelimit-remaining']).toBe('99');
    expect(answers[5]!.json().message).toMatch(/public-key writes across all of this merchant's buyers/);
    expect(answers[5]!.headers['access-control-expose-headers']).toContain('X-RateLimit-Merchant-Remaining');
    // Reads and the merchant's own server are not under the ceiling.
    const read = await sdkConfig(app, merchant, '198.51.100.50');
    expect(read.statusCode).toBe(200);
    expect(read.headers['x-ratelimit-merchant-limit']).toBeUndefined();
  });
});

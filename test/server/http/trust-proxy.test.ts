import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { createTestMerchant, DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';

const PROXY = '10.0.0.5';
const VICTIM = '203.0.113.9';

describe('TRUST_PROXY (issue 12 item 1)', () => {
  const load = (value: string) => loadConfig({ VIGIA_ENV: 'test', TRUST_PROXY: value });

  it('refuses "true", which would trust every X-Forwarded-For hop', () => {
    expect(() => load('true')).toThrow(ConfigError);
    expect(() => load('true')).toThrow(/addresses or CIDRs/);
  });

  it('takes the proxies as addresses and CIDRs, or a hop count', () => {
    expect(load('10.0.0.5, 10.1.0.0/16,2001:db8::/32').trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '2001:db8::/32',
    ]);
    expect(load('1').trustProxy).toBe(1);
    expect(load('').trustProxy).toBe(false);
    expect(() => load('proxy.internal')).toThrow(ConfigError);
    expect(() => load('10.0.0.0/33')).toThrow(ConfigError);
  });

  it('refuses settings that trust everyone: a huge hop count, /0 or /1 networks (issue 23 item 11)', () => {
    expect(() => load('99')).toThrow(/at most 5/);
    expect(load('5').trustProxy).toBe(5);
    expect(load('0').trustProxy).toBe(false);
    for (const everyone of ['0.0.0.0/0', '0.0.0.0/1,128.0.0.0/1', '::/0', '::/1', '10.0.0.0/7']) {
      expect(() => load(everyone), everyone).toThrow(/wider than \/8/);
    }
    expect(load('10.0.0.0/8,fc00::/7').trustProxy).toEqual(['10.0.0.0/8', 'fc00::/7']);
  });
});

describe.each(DIALECTS)('client IP behind a trusted proxy on %s', (dialect) => {
  const ipOf = async (app: Awaited<ReturnType<typeof startApp>>, from: string, forwarded: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/v1/ip',
        remoteAddress: from,
        headers: { 'x-forwarded-for': forwarded },
      })
    ).json().ip;

  it('believes X-Forwarded-For only from the named proxy, and only its last hop', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect), { config: { trustProxy: [PROXY] } });
    expect(await ipOf(app, PROXY, VICTIM)).toBe(VICTIM);
    // A client that is not the proxy cannot name its IP.
    expect(await ipOf(app, '198.51.100.7', VICTIM)).toBe('198.51.100.7');
    // Through the proxy, a hop the client wrote itself (the left one) is ignored.
    expect(await ipOf(app, PROXY, `${VICTIM}, 198.51.100.7`)).toBe('198.51.100.7');
  });

  it("does not let a client spend another buyer's rate limit by writing its IP", async () => {
    const app = await startApp(await freshDatabaseUrl(dialect), { config: { trustProxy: [PROXY] } });
    const shop = await createTestMerchant(app);
    const sdkConfig = (from: string, forwarded: string) =>
      app.inject({
        method: 'GET',
        url: '/v1/sdk/config',
        remoteAddress: from,
        headers: { ...shop.public, 'x-forwarded-for': forwarded },
      });
    let last = 0;
    for (let i = 0; i < 101; i++) last = (await sdkConfig('198.51.100.7', VICTIM)).statusCode;
    expect(last).toBe(429);
    // The buyer whose IP was written is untouched.
    const buyer = await sdkConfig(PROXY, VICTIM);
    expect(buyer.statusCode).toBe(200);
    expect(buyer.headers['x-ratelimit-remaining']).toBe('99');
  });
});

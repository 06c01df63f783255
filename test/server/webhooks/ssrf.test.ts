import { describe, expect, test } from 'vitest';
import { createEndpoint as insertEndpoint } from '../../../src/server/webhooks/service.js';
import {
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  parseIpv6,
  type Resolver,
} from '../../../src/server/webhooks/ssrf.js';
import { DIALECTS } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

const PRODUCTION = { allowPrivateTargets: false };
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('address classification', () => {
  test.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    'not-an-ip',
  ])('%s is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test('parses IPv6 forms', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1::2::3')).toBeNull();
    expect(parseIpv6('1:2:3')).toBeNull();
  });
});

describe('URL check in production mode', () => {
  const resolve = resolverOf({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
    'metadata.example.com': ['169.254.169.254'],
  });

  test('accepts https to a host whose every address is public', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/vigia', PRODUCTION, resolve)).toEqual({
      url: 'https://hooks.example.com/vigia',
    });
    expect(await checkWebhookUrl('https://8.8.8.8/hooks', PRODUCTION, resolve)).toEqual({
      url: 'https://8.8.8.8/hooks',
    });
  });

  test.each([
    ['http://hooks.example.com/', /https/],
    ['https://127.0.0.1/', /127\.0\.0\.1/],
    ['https://2130706433/', /127\.0\.0\.1/],
    ['https://0x7f.1/', /127\.0\.0\.1/],
    ['https://[::1]/', /::1/],
    ['https://[::ffff:169.254.169.254]/', /::ffff/],
    ['https://[fd00:ec2::254]/', /fd00/],
    ['https://0.0.0.0/', /0\.0\.0\.0/],
    // A resolved address is not named (issue 12 item 4): the message would map the internal network.
    [
      'https://sneaky.example.com/',
      /^The host sneaky\.example\.com resolves to a loopback, private(?!.*10\.0\.0\.7)/,
    ],
    ['https://metadata.example.com/', /^The host metadata\.example\.com resolves to a (?!.*169\.254)/],
    ['https://nowhere.example.com/', /could not be resolved/],
  ])('refuses %s', async (url, reason) => {
    const checked = await checkWebhookUrl(url, PRODUCTION, resolve);
    expect(checked).toMatchObject({
      refusal: { code: 'URL_NOT_ALLOWED', message: expect.stringMatching(reason) },
    });
  });

  test('refuses what is not an http(s) URL in every mode, and allows loopback in development', async () => {
    for (const policy of [PRODUCTION, { allowPrivateTargets: true }]) {
      for (const url of ['ftp://example.com/', 'not a url', '/relative', 'https://user:pw@example.com/']) {
        expect(await checkWebhookUrl(url, policy, resolve)).toMatchObject({
          refusal: { code: 'INVALID_URL' },
        });
      }
    }
    expect(
      await checkWebhookUrl('http://127.0.0.1:3000/hooks', { allowPrivateTargets: true }, resolve),
    ).toEqual({
      url: 'http://127.0.0.1:3000/hooks',
    });
  });

  test('at connection time the lookup refuses a host that now resolves privately (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    expect(await checkWebhookUrl('https://rebind.example.com/', PRODUCTION, rebinding)).toHaveProperty('url');
    const lookup = guardedLookup(rebinding);
    const result = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      lookup('rebind.example.com', { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(result.error?.message).toMatch(/rebind\.example\.com resolves to a loopback, private/);
    expect(result.error?.message).not.toMatch(/127\.0\.0\.1/);

    const good = guardedLookup(resolverOf({ 'hooks.example.com': ['93.184.216.34'] }));
    const answer = await new Promise<unknown>((resolve, reject) =>
      good('hooks.example.com', {}, (error, address, family) =>
        error ? reject(error) : resolve([address, family]),
      ),
    );
    expect(answer).toEqual(['93.184.216.34', 4]);
  });
});

describe.each(DIALECTS)('%s', (dialect) => {
  test('production mode refuses private and non-https endpoint URLs through the API', async () => {
    const { app, merchant } = await webhookFixture(dialect, {
      config: { env: 'production', webhookAllowPrivateTargets: false },
    });
    for (const url of [
      'http://example.com/hooks',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hooks',
      'https://[fd00:ec2::254]/hooks',
      'https://0.0.0.0/hooks',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/postbacks/endpoints',
        headers: merchant.secret,
        payload: { url, events: ['charge.captured'] },
      });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().error).toMatchObject({
        code: 'URL_NOT_ALLOWED',
        details: [{ field: 'url', message: expect.any(String) }],
      });
    }
    const list = await app.inject({
      method: 'GET',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
    });
    expect(list.json().pagination.total).toBe(0);

    // An endpoint that exists (from before a policy change) cannot be moved to a private address either.
    const { endpoint } = await insertEndpoint(app.store.db, {
      merchantId: merchant.id,
      url: 'https://hooks.example.com/vigia',
      events: ['charge.captured'],
      masterKey: app.config.webhookMasterKey,
      now: app.clock(),
    });
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpoint.id}`,
      headers: merchant.secret,
      payload: { url: 'https://192.168.0.10/hooks' },
    });
    expect(patched.statusCode).toBe(422);
  });

  test('the worker in production mode connects to no private address, even for an endpoint registered before', async () => {
    const { receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const port = new URL(receiver.url).port;
    const plain = await createEndpoint({ url: `${receiver.url}/plain` });
    const named = await createEndpoint({ url: `https://localhost:${port}/named` });
    await emit('charge.captured');
    await worker({ allowPrivateTargets: false }).drain();

    expect(receiver.requests).toHaveLength(0);
    const [plainDelivery] = await deliveries(plain.id);
    expect(plainDelivery!.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(/https/),
    });
    const [namedDelivery] = await deliveries(named.id);
    expect(namedDelivery!.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(
        /^localhost resolves to a loopback, private, link-local or reserved address/,
      ),
    });
  });
});

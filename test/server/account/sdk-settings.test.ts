import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';

describe.each(DIALECTS)('%s: SDK settings in PATCH /v1/account', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
  });

  const sdkConfig = async () =>
    (
      await app.inject({
        method: 'GET',
        url: '/v1/sdk/config',
        headers: { ...merchant.public, origin: 'https://shop.example.com' },
      })
    ).json().data;
  const patch = (payload: Record<string, unknown>) =>
    app.inject({ method: 'PATCH', url: '/v1/account', headers: merchant.secret, payload });

  it('by default the SDK runs its profiler and uses the service’s own /v1/ip alone', async () => {
    expect(await sdkConfig()).toMatchObject({ profiler_enabled: true, ip_lookup_urls: [] });
    const account = await app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret });
    expect(account.json().data).toMatchObject({ profiler_enabled: true, ip_lookup_urls: [] });
  });

  it('the merchant sets its lookup URLs and turns the profiler off; sdk.init() reads them', async () => {
    const urls = ['https://api.ipify.org?format=json', 'https://ip.example.com/json'];
    const response = await patch({ ip_lookup_urls: urls, profiler_enabled: false });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ ip_lookup_urls: urls, profiler_enabled: false });
    expect(await sdkConfig()).toMatchObject({ ip_lookup_urls: urls, profiler_enabled: false });
    // Other settings are untouched, and these survive a change of the others.
    await patch({ fraud_analysis_mandatory: true });
    expect(await sdkConfig()).toMatchObject({
      ip_lookup_urls: urls,
      profiler_enabled: false,
      fraud_analysis_mandatory: true,
    });
    await patch({ ip_lookup_urls: [], profiler_enabled: true });
    expect(await sdkConfig()).toMatchObject({ ip_lookup_urls: [], profiler_enabled: true });
  });

  it.each([
    ['a URL that is not http(s)', { ip_lookup_urls: ['ftp://ip.example.com'] }, 'ip_lookup_urls.0'],
    ['a relative URL', { ip_lookup_urls: ['/ip'] }, 'ip_lookup_urls.0'],
    ['the same URL twice', { ip_lookup_urls: ['https://a.example', 'https://a.example'] }, 'ip_lookup_urls'],
    [
      'more than 5 URLs',
      { ip_lookup_urls: Array.from({ length: 6 }, (_, i) => `https://ip${i}.example.com`) },
      'ip_lookup_urls',
    ],
    ['profiler_enabled as a string', { profiler_enabled: 'no' }, 'profiler_enabled'],
  ])('refuses %s with 400, changing nothing', async (_case, payload, field) => {
    const before = await sdkConfig();
    const response = await patch(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe(field);
    expect(await sdkConfig()).toEqual(before);
  });
});

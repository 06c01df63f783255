import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lookupIp, parseIpAnswer } from '../../src/sdk/src/ip-lookup.js';
import { type Call, fakeFetch, hang, json } from './helpers.js';

const A = 'https://ip-a.example/json';
const B = 'https://ip-b.example/';
const FIRST_PARTY = 'https://api.vigia.test/v1/ip';

const text = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain' } });
const later = (ms: number, response: () => Response) => () =>
  new Promise<Response>((resolve) => setTimeout(() => resolve(response()), ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('parseIpAnswer', () => {
  it.each([
    ['{"ip":"203.0.113.7"}', '203.0.113.7'],
    ['{ "ip": "2001:db8::1", "country": "BR" }', '2001:db8::1'],
    ['203.0.113.7\n', '203.0.113.7'],
    ['  ::ffff:198.51.100.4 ', '::ffff:198.51.100.4'],
  ])('reads %j', (body, ip) => {
    expect(parseIpAnswer(body)).toBe(ip);
  });

  it.each([
    '',
    '<html>blocked</html>',
    '{"ip":12}',
    '{"address":"203.0.113.7"}',
    '{broken',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3',
    ':::',
    'fe80::1%eth0',
    'example.com',
  ])('rejects %j (the service would refuse the whole signals body)', (body) => {
    expect(parseIpAnswer(body)).toBeUndefined();
  });
});

describe('lookupIp', () => {
  it('tries the URLs in order and keeps the first address, with the URL that gave it', async () => {
    const { fetch, calls } = fakeFetch({
      [A]: () => {
        throw new TypeError('Failed to fetch');
      },
      [B]: later(200, () => text('198.51.100.23')),
      [FIRST_PARTY]: () => json(200, { ip: '203.0.113.99' }),
    });
    const result = lookupIp({ urls: [A, B, FIRST_PARTY], timeoutMs: 1500, fetch });
    await vi.advanceTimersByTimeAsync(200);
    await expect(result).resolves.toEqual({
      status: 'ok',
      ip_address: '198.51.100.23',
      source: B,
      duration_ms: 200,
    });
    expect(calls.map((c) => c.url)).toEqual([A, B]);
  });

  it('falls back to the first-party URL, last, when the public ones fail or answer nonsense', async () => {
    const { fetch, calls } = fakeFetch({
      [A]: () => json(503, { message: 'down' }),
      [B]: () => text('<html>captcha</html>'),
      [FIRST_PARTY]: () => json(200, { ip: '203.0.113.99' }),
    });
    const result = await lookupIp({ urls: [A, B, FIRST_PARTY], timeoutMs: 1500, fetch });
    expect(result).toMatchObject({ status: 'ok', ip_address: '203.0.113.99', source: FIRST_PARTY });
    expect(calls.map((c) => c.url)).toEqual([A, B, FIRST_PARTY]);
  });

  it('sends simple CORS requests: no credentials, no custom headers', async () => {
    const { fetch, spy } = fakeFetch({ [A]: () => text('198.51.100.23') });
    await lookupIp({ urls: [A], timeoutMs: 1500, fetch });
    const init = spy.mock.calls[0]![1]!;
    expect(init.credentials).toBe('omit');
    expect(init.headers).toBeUndefined();
    expect(init.method).toBeUndefined();
  });

  it('reports error when every URL failed before the deadline', async () => {
    const { fetch } = fakeFetch({ [A]: () => json(500, {}), [FIRST_PARTY]: () => text('') });
    const result = await lookupIp({ urls: [A, FIRST_PARTY], timeoutMs: 1500, fetch });
    expect(result).toEqual({ status: 'error', duration_ms: 0 });
  });

  it('stops at one overall deadline and aborts the request in flight', async () => {
    const signals: AbortSignal[] = [];
    const { fetch, calls } = fakeFetch({
      [A]: later(1000, () => json(500, {})),
      [B]: (call: Call) => {
        signals.push(call.signal!);
        return hang(call);
      },
      [FIRST_PARTY]: () => json(200, { ip: '203.0.113.99' }),
    });
    let settled = false;
    const result = lookupIp({ urls: [A, B, FIRST_PARTY], timeoutMs: 1500, fetch }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(1499);
    expect(settled).toBe(false);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    // Not 1000 ms per URL: B had only what was left of the 1500 ms, and the first-party URL got no turn.
    await expect(result).resolves.toEqual({ status: 'timeout', duration_ms: 1500 });
    expect(signals[0]?.aborted).toBe(true);
    expect(calls.map((c) => c.url)).toEqual([A, B]);
  });

  it('meets the deadline even when fetch ignores its abort signal', async () => {
    const { fetch } = fakeFetch({ [A]: () => new Promise<Response>(() => {}) });
    const result = lookupIp({ urls: [A], timeoutMs: 1500, fetch });
    await vi.advanceTimersByTimeAsync(1500);
    await expect(result).resolves.toMatchObject({ status: 'timeout' });
  });

  it('ends with error, aborting the request, when its parent signal aborts (teardown)', async () => {
    const signals: AbortSignal[] = [];
    const { fetch } = fakeFetch({
      [A]: (call: Call) => {
        signals.push(call.signal!);
        return hang(call);
      },
    });
    const parent = new AbortController();
    const result = lookupIp({ urls: [A, FIRST_PARTY], timeoutMs: 1500, fetch, signal: parent.signal });
    await vi.advanceTimersByTimeAsync(300);
    parent.abort();
    await expect(result).resolves.toEqual({ status: 'error', duration_ms: 300 });
    expect(signals[0]?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

import type { VigiaApp } from '../../../src/server/app.js';
import { updateMerchantSettings } from '../../../src/server/merchants/service.js';
import { createTestMerchant, type TestMerchant } from '../../helpers/app.js';

/** A test merchant whose buckets these suites (hundreds of requests a file) never empty. */
export async function createBusyMerchant(
  app: VigiaApp,
  options: Parameters<typeof createTestMerchant>[1] = {},
) {
  const merchant = await createTestMerchant(app, options);
  await updateMerchantSettings(
    app.store.db,
    merchant.id,
    { rateLimits: { default: 1_000_000 } },
    app.clock(),
  );
  return merchant;
}

export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A valid POST /v1/fraud/sessions body, as the SDK sends it. */
export const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  ip_address: null,
  type: 'Chrome',
  host_name: 'shop.example.com',
  cookies_accepted: true,
  user_agent: CHROME_UA,
  ...overrides,
});

/** A valid signals body with a profiler report. */
export const signalsBody = (overrides: Record<string, unknown> = {}) => ({
  ip_lookup: { status: 'ok', ip_address: '203.0.113.7', source: 'https://ip.example.net/', duration_ms: 42 },
  profiler: {
    provider: 'fingerprintjs+botd',
    visitor_id: 'a1b2c3d4e5f6a7b8c9d0',
    confidence: 0.6,
    components: { platform: 'Linux x86_64', timezone: 'UTC', languages: [['en-US']] } as Record<
      string,
      unknown
    >,
    bot: { detected: true, kind: 'headless_chrome' },
    duration_ms: 180,
  },
  ...overrides,
});

/** The signals token of each session `createSession` made: what the SDK keeps in the page. */
const signalsTokens = new Map<string, string>();

/** `body` with the session's signals token, as the SDK sends it (unless `body` names its own). */
export function withToken(sessionId: string, body: object): Record<string, unknown> {
  if ('signals_token' in body) return { ...body };
  return { signals_token: signalsTokens.get(sessionId) ?? 'no-token-for-this-session', ...body };
}

export async function createSession(
  app: VigiaApp,
  merchant: TestMerchant,
  options: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<{ sessionId: string; expires_at: string; signals_token: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/fraud/sessions',
    headers: { ...merchant.public, 'user-agent': CHROME_UA, ...options.headers },
    payload: options.body ?? sessionBody(),
  });
  if (response.statusCode !== 201)
    throw new Error(`session not created: ${response.statusCode} ${response.body}`);
  const data = response.json().data;
  signalsTokens.set(data.sessionId, data.signals_token);
  return data;
}

export async function readSession(app: VigiaApp, merchant: TestMerchant, id: string) {
  return app.inject({ method: 'GET', url: `/v1/fraud/sessions/${id}`, headers: merchant.secret });
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VigiaApp } from '../../src/server/app.js';
import { createTestMerchant, freshDatabaseUrl, startApp, type TestMerchant } from '../helpers/app.js';
import { CHROME_UA, cardFields } from '../helpers/charges.js';
import { recordStatements } from '../helpers/statements.js';

// Issue 14: what the busiest routes cost PostgreSQL per request, in the steady state (the key verified lately,
// rate-limit points held by this instance). One round trip for a write, none for the account read: each extra
// one was a measurable share of the throughput (bench/README.md).

const browserHeaders = (merchant: TestMerchant) => ({
  ...merchant.public,
  origin: 'https://shop.example.com',
  'user-agent': CHROME_UA,
});

const sessionBody = {
  ip_address: null,
  type: 'Chrome',
  host_name: 'shop.example.com',
  cookies_accepted: true,
  user_agent: CHROME_UA,
};

describe('what the hot routes send PostgreSQL (issue 14)', () => {
  afterEach(() => vi.restoreAllMocks());

  async function steadyApp(): Promise<{ app: VigiaApp; merchant: TestMerchant }> {
    const app = await startApp(await freshDatabaseUrl('postgres'));
    const merchant = await createTestMerchant(app);
    // The first requests verify the keys and claim rate-limit points; the steady state follows.
    await app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret });
    await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers: browserHeaders(merchant),
      payload: sessionBody,
    });
    return { app, merchant };
  }

  it('creates a fraud session in one statement, an INSERT PostgreSQL has prepared, and no transaction', async () => {
    const { app, merchant } = await steadyApp();
    const sent = recordStatements();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers: browserHeaders(merchant),
      payload: sessionBody,
    });
    expect(created.statusCode).toBe(201);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toMatch(/^insert into "fraud_sessions"/);
    expect(sent[0]?.name).toEqual(expect.any(String));
    // What was answered is what was stored.
    const session = created.json().data;
    const read = await app.inject({
      method: 'GET',
      url: `/v1/fraud/sessions/${session.sessionId}`,
      headers: merchant.secret,
    });
    expect(read.json().data).toMatchObject({
      id: session.sessionId,
      status: 'open',
      expires_at: session.expires_at,
    });
  });

  it('creates a card token in one prepared INSERT', async () => {
    const { app, merchant } = await steadyApp();
    await app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: browserHeaders(merchant),
      payload: { card: cardFields() },
    });
    const sent = recordStatements();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: browserHeaders(merchant),
      payload: { card: cardFields() },
    });
    expect(created.statusCode).toBe(201);
    expect(sent.map((statement) => statement.text)).toEqual([
      expect.stringMatching(/^insert into "card_tokens"/),
    ]);
    expect(sent[0]?.name).toEqual(expect.any(String));
  });

  it('answers GET /v1/account without a query, and still counts every request', async () => {
    const { app, merchant } = await steadyApp();
    const sent = recordStatements();
    const remaining = [];
    for (let i = 0; i < 5; i++) {
      const answer = await app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret });
      expect(answer.statusCode).toBe(200);
      remaining.push(Number(answer.headers['x-ratelimit-remaining']));
    }
    expect(sent).toEqual([]);
    expect(remaining).toEqual([98, 97, 96, 95, 94]);
  });

  it('finds a verified key however its header is written, without looking it up again', async () => {
    const { app, merchant } = await steadyApp();
    const encoded = (text: string) => Buffer.from(text).toString('base64');
    const sent = recordStatements();
    for (const authorization of [
      `basic ${encoded(`${merchant.secretKey}:`)}`,
      `BASIC ${encoded(`${merchant.secretKey}:`)}`,
      `Basic ${encoded(`${merchant.secretKey}:a password`)}`,
    ]) {
      const answer = await app.inject({ method: 'GET', url: '/v1/account', headers: { authorization } });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().data.id).toBe(merchant.id);
    }
    expect(sent).toEqual([]);
    // A header that only starts like a verified one is not it.
    const longer = await app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: { authorization: `${merchant.secret.authorization}A` },
    });
    expect(longer.statusCode).toBe(401);
  });
});

import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  basic,
  createTestMerchant,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';
import { chargeBody, createToken, liftRateLimits } from '../../helpers/charges.js';
import { submerchantBody } from '../../helpers/submerchants.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

// Issue 23, item 1: under /dashboard/api the caller is the session's; an Authorization header beside the cookie
// was never verified and must not switch a live merchant into test mode (forced fraud outcomes, self-approval).
const FOREIGN_TEST_KEY = { authorization: basic(`sk_test_${'x'.repeat(32)}`) };

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let live: TestMerchant;
  let sandbox: TestMerchant;
  let liveOwner: SignedIn;
  let sandboxOwner: SignedIn;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
    live = await createTestMerchant(app, { name: 'Live Shop', live: true });
    sandbox = await createTestMerchant(app, { name: 'Sandbox Shop' });
    for (const merchant of [live, sandbox]) await liftRateLimits(app, merchant);
    await createUser(app, live.id, 'owner@live.example', 'owner');
    await createUser(app, sandbox.id, 'owner@sandbox.example', 'owner');
    liveOwner = await signIn(app, 'owner@live.example');
    sandboxOwner = await signIn(app, 'owner@sandbox.example');
  });

  const dashboardCharge = async (merchant: TestMerchant, user: SignedIn, email: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/charges',
      headers: { ...user.change, ...FOREIGN_TEST_KEY },
      payload: chargeBody(await createToken(app, merchant), null, {
        customer: { name: 'Maria Silva', email, document: '52998224725' },
      }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };

  test("a live merchant's dashboard charge gets no test outcome, whatever Authorization header it adds", async () => {
    const charge = await dashboardCharge(live, liveOwner, 'review@risk.test');
    expect(charge.fraud_analysis.status).toBe('not_analyzed');
  });

  test("a test merchant's dashboard charge gets its test outcome (the mode is the merchant's)", async () => {
    const charge = await dashboardCharge(sandbox, sandboxOwner, 'review@risk.test');
    expect(charge.fraud_analysis.status).toBe('review');
  });

  test('a live merchant cannot approve its own submerchant through the test-mode route', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/submerchants',
      headers: liveOwner.change,
      payload: submerchantBody(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const approve = await app.inject({
      method: 'POST',
      url: `/dashboard/api/v1/test/submerchants/${id}/approve`,
      headers: { ...liveOwner.change, ...FOREIGN_TEST_KEY },
    });
    expect(approve.statusCode, approve.body).toBe(403);
    expect(approve.json().error.code).toBe('TEST_MODE_ONLY');
    const read = await app.inject({
      method: 'GET',
      url: `/v1/submerchants/${id}`,
      headers: live.secret,
    });
    expect(read.json().data.status).not.toBe('approved');
  });

  test('live keys stay out of test mode on /v1 too; test keys keep it', async () => {
    const post = (merchant: TestMerchant, token: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/charges',
        headers: merchant.secret,
        payload: chargeBody(token, null, {
          customer: { name: 'Maria Silva', email: 'declined@risk.test', document: '52998224725' },
        }),
      });
    const liveCharge = await post(live, await createToken(app, live));
    expect(liveCharge.json().data.fraud_analysis.status).toBe('not_analyzed');
    const testCharge = await post(sandbox, await createToken(app, sandbox));
    expect(testCharge.json().data.fraud_analysis.status).toBe('declined');
  });
});

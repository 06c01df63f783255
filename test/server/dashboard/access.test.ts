import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, freshDatabaseUrl, startApp, TestClock, type TestMerchant } from '../../helpers/app.js';
import { quickCharge } from '../../helpers/charges.js';
import { createBusyMerchant, seedSubmerchant } from '../../helpers/submerchants.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

const ENDPOINT = { url: 'http://127.0.0.1:9/hooks', events: ['charge.captured'] };

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let merchant: TestMerchant;
  let owner: SignedIn;
  let viewer: SignedIn;
  let operator: SignedIn;
  let operatorUserId: string;

  beforeAll(async () => {
    clock = new TestClock();
    app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    merchant = await createBusyMerchant(app, 'Loja Azul');
    await createUser(app, merchant.id, 'owner@loja.example', 'owner');
    await createUser(app, merchant.id, 'viewer@loja.example', 'viewer');
    ({ id: operatorUserId } = await createUser(app, null, 'staff@platform.example'));
    owner = await signIn(app, 'owner@loja.example');
    viewer = await signIn(app, 'viewer@loja.example');
    operator = await signIn(app, 'staff@platform.example');
  });

  const endpointsOfMerchant = async () =>
    (await app.inject({ method: 'GET', url: '/v1/postbacks/endpoints', headers: merchant.secret })).json()
      .data;

  test('a change without the CSRF token of the session is refused and changes nothing', async () => {
    const before = await endpointsOfMerchant();
    for (const headers of [{ cookie: owner.cookie }, { cookie: owner.cookie, 'x-csrf-token': viewer.csrf }]) {
      const response = await app.inject({
        method: 'POST',
        url: '/dashboard/api/v1/postbacks/endpoints',
        headers,
        payload: ENDPOINT,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      expect(response.json().message).toMatch(/CSRF/);
    }
    expect(await endpointsOfMerchant()).toEqual(before);
  });

  test("an owner's change runs the API's own handler: same rules, visible through the API key", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: owner.change,
      payload: ENDPOINT,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.secret).toMatch(/^whsec_/);
    expect((await endpointsOfMerchant()).map((e: { id: string }) => e.id)).toContain(created.json().data.id);
    // The API's validation answers through the dashboard too.
    const invalid = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: owner.change,
      payload: { url: 'ftp://example.com', events: ['charge.captured'] },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe('VALIDATION_ERROR');
  });

  test('a viewer reads but every change is 403', async () => {
    const list = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/charges',
      headers: viewer.change,
    });
    expect(list.statusCode).toBe(200);
    const before = await endpointsOfMerchant();
    const create = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: viewer.change,
      payload: ENDPOINT,
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toMatch(/Viewers/);
    const settings = await app.inject({
      method: 'PATCH',
      url: '/dashboard/api/v1/account',
      headers: viewer.change,
      payload: { fraud_analysis_mandatory: true },
    });
    expect(settings.statusCode).toBe(403);
    expect(await endpointsOfMerchant()).toEqual(before);
  });

  test("a merchant's user never reaches operator routes, nor the operator merchant routes", async () => {
    const asMerchant = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/operator/merchants',
      headers: owner.change,
    });
    expect(asMerchant.statusCode).toBe(403);
    const asOperator = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/charges',
      headers: operator.change,
    });
    expect(asOperator.statusCode).toBe(403);
    const unsigned = await app.inject({ method: 'GET', url: '/dashboard/api/v1/charges' });
    expect(unsigned.statusCode).toBe(401);
  });

  test("a charge's activity explains its reasons and shows its session and events", async () => {
    const { response } = await quickCharge(app, merchant, { session: { signals: false } });
    const charge = response.json().data;
    expect(charge.fraud_analysis.reasons).toContain('PROFILE_MISSING');
    const activity = await app.inject({
      method: 'GET',
      url: `/dashboard/api/charges/${charge.id}/activity`,
      headers: viewer.change,
    });
    expect(activity.statusCode, activity.body).toBe(200);
    const data = activity.json().data;
    expect(data.reasons).toContainEqual({
      code: 'PROFILE_MISSING',
      description: expect.stringMatching(/\w+/),
    });
    expect(data.fraud_session.id).toBe(charge.fraud_session_id);
    // A charge held for review opened one (charge.review_opened); any other announced its status.
    const opened = charge.status === 'in_review' ? 'charge.review_opened' : `charge.${charge.status}`;
    expect(data.events.map((event: { type: string }) => event.type)).toEqual([opened]);
    const other = await createBusyMerchant(app, 'Outra Loja');
    const { response: foreign } = await quickCharge(app, other, { session: false });
    const hidden = await app.inject({
      method: 'GET',
      url: `/dashboard/api/charges/${foreign.json().data.id}/activity`,
      headers: viewer.change,
    });
    expect(hidden.statusCode).toBe(404);
  });

  test("the operator's document and submerchant decisions carry the operator user as actor", async () => {
    const seeded = await seedSubmerchant(app, merchant);
    const submit = await app.inject({
      method: 'POST',
      url: `/dashboard/api/v1/submerchants/${seeded.id}/submit-for-review`,
      headers: owner.change,
    });
    expect(submit.statusCode, submit.body).toBe(200);
    for (const documentId of seeded.documentIds) {
      const approved = await app.inject({
        method: 'POST',
        url: `/dashboard/api/v1/operator/submerchants/${seeded.id}/documents/${documentId}/approve`,
        headers: operator.change,
      });
      expect(approved.statusCode, approved.body).toBe(200);
    }
    const approve = await app.inject({
      method: 'POST',
      url: `/dashboard/api/v1/operator/submerchants/${seeded.id}/approve`,
      headers: operator.change,
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const detail = approve.json().data;
    expect(detail.status).toBe('active');
    const last = detail.status_history.at(-1);
    expect(last).toMatchObject({ to: 'active', actor: 'operator', actor_id: operatorUserId });
    const names = await app.inject({
      method: 'GET',
      url: `/dashboard/api/users/names?ids=${operatorUserId}`,
      headers: operator.change,
    });
    expect(names.json().data).toEqual({ [operatorUserId]: 'staff@platform.example' });
  });
});

import { describe, expect, test } from 'vitest';
import { DIALECTS, freshDatabaseUrl, startApp, TestClock } from '../../helpers/app.js';
import { chargeBody, createToken, postCharge, quickCharge, seedCharges } from '../../helpers/charges.js';
import { createBusyMerchant } from '../../helpers/submerchants.js';
import { createUser, signIn } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  test("Home counts every charge of the period by day, and today's new charges show at once", async () => {
    const clock = new TestClock('2026-11-21T12:00:00.000Z');
    const app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    const merchant = await createBusyMerchant(app, 'Loja Azul');
    const other = await createBusyMerchant(app, 'Outra');
    await seedCharges(app, merchant.id, 300, {
      from: '2026-11-12T00:00:00.000Z',
      to: '2026-11-21T11:00:00.000Z',
    });
    await seedCharges(app, other.id, 50, {
      from: '2026-11-12T00:00:00.000Z',
      to: '2026-11-21T11:00:00.000Z',
    });
    await createUser(app, merchant.id, 'ana@loja.example');
    const { cookie } = await signIn(app, 'ana@loja.example');
    const home = async (from: string, to: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/dashboard/api/home?date_from=${from}&date_to=${to}`,
        headers: { cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const first = await home('2026-11-12', '2026-11-21');
    expect(first.totals.charges).toBe(300);
    expect(first.days).toHaveLength(10);
    expect(first.days.reduce((sum: number, day: { charges: number }) => sum + day.charges, 0)).toBe(300);
    expect(first.totals.not_analyzed).toBe(300);

    // A charge today (no profiler report: PROFILE_MISSING) counts at once; the settled days are unchanged.
    await quickCharge(app, merchant, { session: { signals: false } });
    const again = await home('2026-11-12', '2026-11-21');
    expect(again.totals.charges).toBe(301);
    expect(again.days.slice(0, 9)).toEqual(first.days.slice(0, 9));
    expect(again.top_reasons).toContainEqual({ code: 'PROFILE_MISSING', count: 1 });
    expect(again.sessions).toMatchObject({ created: 1, consumed: 1, profiled: 0 });
    // A shorter period inside the cached one agrees with it.
    const part = await home('2026-11-14', '2026-11-16');
    expect(part.days).toEqual(first.days.slice(2, 5));

    const backwards = await app.inject({
      method: 'GET',
      url: '/dashboard/api/home?date_from=2026-11-21&date_to=2026-11-01',
      headers: { cookie },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.code).toBe('VALIDATION_ERROR');
  });

  test('Home counts each refused reuse of a used fraud session on the day of the refusal, though the charge rolled back', async () => {
    const clock = new TestClock('2026-11-20T23:50:00.000Z');
    const app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    const merchant = await createBusyMerchant(app, 'Loja Azul');
    const other = await createBusyMerchant(app, 'Outra');
    await createUser(app, merchant.id, 'ana@loja.example');
    const { cookie } = await signIn(app, 'ana@loja.example');
    const home = async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/dashboard/api/home?date_from=2026-11-20&date_to=2026-11-21',
        headers: { cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const replay = async (owner: typeof merchant, sessionId: string) => {
      const refused = await postCharge(app, owner, chargeBody(await createToken(app, owner), sessionId));
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error.code).toBe('FRAUD_SESSION_ALREADY_USED');
    };

    const { response, sessionId } = await quickCharge(app, merchant);
    expect(response.statusCode, response.body).toBe(201);
    await replay(merchant, sessionId!);
    await replay(merchant, sessionId!);
    // Another merchant's replays are its own; an unknown session is not a reuse.
    const theirs = await quickCharge(app, other);
    await replay(other, theirs.sessionId!);
    const unknown = await postCharge(
      app,
      merchant,
      chargeBody(await createToken(app, merchant), '00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.json().error.code).toBe('FRAUD_SESSION_NOT_FOUND');

    const first = await home();
    expect(first.sessions).toMatchObject({ created: 1, consumed: 1, reuse_refused: 2 });
    expect(first.totals.charges).toBe(1);

    // The next day (once the 20th has settled and is cached), a replay of the same session counts on the 21st.
    clock.set('2026-11-21T01:00:00.000Z');
    expect((await home()).sessions.reuse_refused).toBe(2);
    await replay(merchant, sessionId!);
    const later = await home();
    expect(later.sessions).toMatchObject({ created: 1, consumed: 1, reuse_refused: 3 });
    expect(later.totals.charges).toBe(1);
  });
});

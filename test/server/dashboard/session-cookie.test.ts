import { describe, expect, test } from 'vitest';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, signIn } from './helpers.js';

// Issue 23 item 10: with two session cookies the first won, so a sibling subdomain could plant a session.
describe.each(DIALECTS)('%s', (dialect) => {
  test('a request with two session cookies is refused, whichever comes first, and the cookie cleared', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    await createUser(app, merchant.id, 'eve@loja.example', 'owner');
    const ana = await signIn(app, 'ana@loja.example');
    const planted = await signIn(app, 'eve@loja.example');
    expect(ana.cookie).toMatch(/^__Host-vigia_dashboard=/);
    for (const cookie of [`${planted.cookie}; ${ana.cookie}`, `${ana.cookie}; ${planted.cookie}`]) {
      const response = await app.inject({
        method: 'GET',
        url: '/dashboard/api/session',
        headers: { cookie },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('SESSION_COOKIE_AMBIGUOUS');
      expect(String(response.headers['set-cookie'])).toMatch(/^__Host-vigia_dashboard=; Path=\/; Max-Age=0/);
    }
    // A cookie of another name (the unprefixed one a parent domain could set) is not the session's.
    const other = await app.inject({
      method: 'GET',
      url: '/dashboard/api/session',
      headers: { cookie: `vigia_dashboard=${planted.cookie.split('=')[1]}; ${ana.cookie}` },
    });
    expect(other.json().data.user.email).toBe('ana@loja.example');
  });
});

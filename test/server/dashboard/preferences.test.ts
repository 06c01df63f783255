import { describe, expect, test } from 'vitest';
import { negotiateLocale } from '../../../src/server/dashboard/preferences.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, signIn } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  const start = async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    return { app, merchant };
  };

  test("a user's language and time zone are saved with the user and come back with the session", async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'ana@loja.example', 'viewer');
    const ana = await signIn(app, 'ana@loja.example');
    const session = async () =>
      (
        await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: ana.cookie } })
      ).json().data.user;
    expect(await session()).toMatchObject({ locale: null, time_zone: null });

    // A viewer changes nothing of the merchant's, but may choose their own language.
    const saved = await app.inject({
      method: 'PATCH',
      url: '/dashboard/api/me',
      headers: ana.change,
      payload: { locale: 'en', time_zone: 'america/manaus' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ locale: 'en', time_zone: 'America/Manaus' });
    expect(await session()).toMatchObject({ locale: 'en', time_zone: 'America/Manaus' });

    // A later sign-in (another browser) gets the same choice; one field changes alone; null forgets it.
    const again = await signIn(app, 'ana@loja.example');
    const zoneOnly = await app.inject({
      method: 'PATCH',
      url: '/dashboard/api/me',
      headers: again.change,
      payload: { time_zone: null },
    });
    expect(zoneOnly.json().data).toEqual({ locale: 'en', time_zone: null });
  });

  test('an unknown language or zone, an empty body or a missing CSRF token is refused and changes nothing', async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    const ana = await signIn(app, 'ana@loja.example');
    const patch = (payload: unknown, headers: Record<string, string> = ana.change) =>
      app.inject({ method: 'PATCH', url: '/dashboard/api/me', headers, payload: payload as object });

    const language = await patch({ locale: 'fr' });
    expect(language.statusCode).toBe(400);
    expect(language.json().error.code).toBe('VALIDATION_ERROR');
    const zone = await patch({ time_zone: 'Mars/Olympus_Mons' });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().error.details).toEqual([
      { field: 'time_zone', message: expect.stringContaining('IANA time zone') },
    ]);
    expect((await patch({})).statusCode).toBe(400);
    expect((await patch({ locale: 'en' }, { cookie: ana.cookie })).statusCode).toBe(403);
    const signedOut = await app.inject({
      method: 'PATCH',
      url: '/dashboard/api/me',
      payload: { locale: 'en' },
    });
    expect(signedOut.statusCode).toBe(401);

    const user = (
      await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: ana.cookie } })
    ).json().data.user;
    expect(user).toMatchObject({ locale: null, time_zone: null });
  });

  test("the page's <html lang> and loading text follow the browser's Accept-Language, pt-BR by default", async () => {
    const { app } = await start();
    const page = async (acceptLanguage?: string) =>
      app.inject({
        method: 'GET',
        url: '/dashboard',
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
    const english = await page('en-US,en;q=0.9');
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('Loading the dashboard…');
    expect(english.headers.vary).toContain('Accept-Language');
    const portuguese = await page('pt-BR,pt;q=0.9,en;q=0.8');
    expect(portuguese.body).toContain('<html lang="pt-BR">');
    expect(portuguese.body).toContain('Carregando o painel…');
    expect((await page()).body).toContain('<html lang="pt-BR">');
  });
});

test('Accept-Language is read by its q-values; a language the dashboard lacks falls back to pt-BR', () => {
  expect(negotiateLocale('fr-FR, en;q=0.5, pt;q=0.8')).toBe('pt-BR');
  expect(negotiateLocale('fr-FR, en;q=0.9, pt;q=0.8')).toBe('en');
  expect(negotiateLocale('pt-PT')).toBe('pt-BR');
  expect(negotiateLocale('de, *')).toBe('pt-BR');
  expect(negotiateLocale('en;q=0, de')).toBe('pt-BR');
  expect(negotiateLocale(undefined)).toBe('pt-BR');
});

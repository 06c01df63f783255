import { describe, expect, test } from 'vitest';
import {
  hashPassword,
  needsRehash,
  SCRYPT_COST,
  verifyPassword,
} from '../../../src/server/dashboard/passwords.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, PASSWORD, signIn } from './helpers.js';

// Issue 23 item 9: scrypt was at N=2^15, below OWASP's floor.
test("production hashes at OWASP's floor for scrypt, N=2^17 r=8 p=1, within Node's memory ceiling", async () => {
  expect(SCRYPT_COST).toEqual({ N: 131072, r: 8, p: 1 });
  const stored = await hashPassword(PASSWORD, SCRYPT_COST);
  expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
  expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  expect(await verifyPassword('not the password', stored)).toBe(false);
  expect(needsRehash(stored, SCRYPT_COST)).toBe(false);
  const older = stored.replace('$131072$', '$32768$');
  expect(needsRehash(older, SCRYPT_COST)).toBe(true);
}, 30_000);

describe.each(DIALECTS)('%s', (dialect) => {
  test('a hash made at a lower cost is made again at the next sign-in, and still verifies', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    const { id } = await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    const old = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    await app.store.db
      .updateTable('dashboard_users')
      .set({ password_hash: old })
      .where('id', '=', id)
      .execute();
    await signIn(app, 'ana@loja.example');
    const row = await app.store.db
      .selectFrom('dashboard_users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toBe(old);
    expect(needsRehash(row.password_hash!)).toBe(false);
    await signIn(app, 'ana@loja.example');
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { getMerchant } from '../merchants/service.js';
import { createDashboardUser } from './users.js';

/**
 * Development's sign-ins, known in advance so that README can give them: the demo merchant's owner and the
 * platform operator. Created only in development, never in production or test.
 */
export const DEMO_USERS = {
  merchant: { email: 'demo@vigia.dev', password: 'vigia-demo-password' },
  operator: { email: 'operator@vigia.dev', password: 'vigia-demo-password' },
} as const;

/** Where development writes its demo users for `npm start`'s banner: beside the demo merchant's keys. */
export const demoUserFile = (config: Pick<Config, 'demoKeysFile'>): string =>
  path.join(path.dirname(config.demoKeysFile), 'demo-user.json');

/**
 * In development, gives the demo merchant (the one of the demo keys file) its owner and the platform its operator,
 * and writes them to `demoUserFile` for `npm start`'s banner. An existing demo user of another merchant is moved
 * to this one: when the keys file names a new demo merchant (start.mjs makes one for a database the file did not
 * come from), the printed sign-in must open the merchant the demo shop charges for.
 */
export async function ensureDemoUsers(
  db: Kysely<Database>,
  config: Pick<Config, 'env' | 'demoKeysFile'>,
  now: Date,
): Promise<void> {
  if (config.env !== 'development') return;
  const merchantId = await demoMerchantId(config.demoKeysFile);
  const merchant = merchantId ? await getMerchant(db, merchantId) : null;
  const wanted = [
    { ...DEMO_USERS.operator, merchantId: null, role: 'operator' as const },
    ...(merchant ? [{ ...DEMO_USERS.merchant, merchantId: merchant.id, role: 'owner' as const }] : []),
  ];
  for (const user of wanted) {
    const existing = await db
      .selectFrom('dashboard_users')
      .select(['id', 'merchant_id'])
      .where('email', '=', user.email)
      .executeTakeFirst();
    if (!existing) await createDashboardUser(db, { ...user, now });
    else if (existing.merchant_id !== user.merchantId) {
      await db
        .updateTable('dashboard_users')
        .set({ merchant_id: user.merchantId, role: user.role, updated_at: now.toISOString() })
        .where('id', '=', existing.id)
        .execute();
    }
    process.stdout.write(
      `Dashboard demo user (development only): ${user.email} / ${user.password} (${user.role})\n`,
    );
  }
  const file = demoUserFile(config);
  if (!merchant) {
    // A file left from another database would print a sign-in that opens nothing.
    await fs.rm(file, { force: true });
    return;
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    `${JSON.stringify({ ...DEMO_USERS.merchant, operator: DEMO_USERS.operator }, null, 2)}\n`,
    {
      mode: 0o600,
    },
  );
}

async function demoMerchantId(file: string): Promise<string | null> {
  try {
    const { id } = JSON.parse(await fs.readFile(file, 'utf8')) as { id?: unknown };
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

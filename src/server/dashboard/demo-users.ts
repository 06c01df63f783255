import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
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

/** In development, gives the demo merchant (from the demo keys file) and the operator their demo users. */
export async function ensureDemoUsers(app: FastifyInstance): Promise<void> {
  if (app.config.env !== 'development') return;
  const merchantId = await demoMerchantId(app.config.demoKeysFile);
  const merchant = merchantId ? await getMerchant(app.store.db, merchantId) : null;
  const wanted = [
    { ...DEMO_USERS.operator, merchantId: null, role: 'operator' as const },
    ...(merchant ? [{ ...DEMO_USERS.merchant, merchantId: merchant.id, role: 'owner' as const }] : []),
  ];
  for (const user of wanted) {
    const exists = await app.store.db
      .selectFrom('dashboard_users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirst();
    if (!exists) await createDashboardUser(app.store.db, { ...user, now: app.clock() });
    process.stdout.write(
      `Dashboard demo user (development only): ${user.email} / ${user.password} (${user.role})\n`,
    );
  }
}

async function demoMerchantId(file: string): Promise<string | null> {
  try {
    const { id } = JSON.parse(await fs.readFile(file, 'utf8')) as { id?: unknown };
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

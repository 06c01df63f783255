import type { AddressInfo } from 'node:net';
import { Vigia, type VigiaOptions } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { type DialectName, freshDatabaseUrl, startApp, type TestMerchant } from '../helpers/app.js';
import { liftRateLimits } from '../helpers/charges.js';
import { createBusyMerchant } from '../helpers/submerchants.js';

/** Fast retries for tests: the policy is the same, the waits are milliseconds. */
export const QUICK_RETRY = { initialDelayMs: 5, maxDelayMs: 20 };

/** The service on a real port of 127.0.0.1 (the client speaks real HTTP to it) and a merchant with no rate limits. */
export async function startListeningService(
  dialect: DialectName,
): Promise<{ app: VigiaApp; merchant: TestMerchant; baseUrl: string }> {
  const app = await startApp(await freshDatabaseUrl(dialect));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const merchant = await createBusyMerchant(app);
  await liftRateLimits(app, merchant);
  const { port } = app.server.address() as AddressInfo;
  return { app, merchant, baseUrl: `http://127.0.0.1:${port}` };
}

export function clientFor(
  merchant: TestMerchant,
  baseUrl: string,
  options: Partial<VigiaOptions> = {},
): Vigia {
  return new Vigia(merchant.secretKey, { baseUrl, retry: QUICK_RETRY, ...options });
}

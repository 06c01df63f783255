// No vitest here: benchmarks seed through these helpers outside vitest (test/helpers/submerchants.ts).
import type { VigiaApp } from '../../src/server/app.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { createOperatorKey } from '../../src/server/operators/keys.js';

export const basic = (key: string): string => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export interface TestMerchant {
  id: string;
  secretKey: string;
  publicKey: string;
  /** Authorization header values. */
  secret: { authorization: string };
  public: { authorization: string };
}

export async function createTestMerchant(
  app: VigiaApp,
  options: { name?: string; fraudAnalysisMandatory?: boolean; live?: boolean } = {},
): Promise<TestMerchant> {
  const { merchant, secretKey, publicKey } = await createMerchant(app.store.db, {
    name: options.name ?? 'Test Shop',
    fraudAnalysisMandatory: options.fraudAnalysisMandatory,
    live: options.live ?? false,
    now: app.clock(),
  });
  return {
    id: merchant.id,
    secretKey,
    publicKey,
    secret: { authorization: basic(secretKey) },
    public: { authorization: basic(publicKey) },
  };
}

export async function createTestOperator(app: VigiaApp): Promise<{ authorization: string }> {
  const { key } = await createOperatorKey(app.store.db, app.clock());
  return { authorization: basic(key) };
}

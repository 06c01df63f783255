import type { FastifyPluginAsync } from 'fastify';
import { bankAccountReviewRoutes } from './review-routes.js';
import { merchantBankAccountRoutes, submerchantBankAccountRoutes } from './routes.js';

export { BANK_ACCOUNT_EVENT_TYPES, type BankAccountEventType } from './events.js';

/** Bank accounts of merchants and submerchants, and their verification (docs/bank-accounts.md). */
export const bankAccountRoutes: FastifyPluginAsync = async (app) => {
  await app.register(merchantBankAccountRoutes);
  await app.register(submerchantBankAccountRoutes);
  await app.register(bankAccountReviewRoutes);
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { toListFilters } from '../http/lists.js';
import { SUBMERCHANTS_ERRORS } from '../submerchants/errors.js';
import { testModeOnly } from './errors.js';
import { presentBankAccount } from './present.js';
import { BankAccountSchema, bankAccountListQuery, RejectBody } from './schemas.js';
import { listBankAccounts, reviewBankAccount } from './service.js';

const IdParams = Type.Object({ id: Id });

/**
 * The verification of bank accounts: the operator's queue (every merchant's accounts, by status) with verify and
 * reject, and, in test mode only, the merchant verifying its own so that an integration sees the whole path.
 */
export const bankAccountReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/operator/bank-accounts',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "List every merchant's bank accounts (status=pending_verification: the verification queue)",
        querystring: bankAccountListQuery(),
        response: { 200: listResponse(BankAccountSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { accounts, pagination } = await listBankAccounts(app.store.db, {}, toListFilters(request.query));
      return { message: 'Bank accounts retrieved.', data: accounts.map(presentBankAccount), pagination };
    },
  );

  app.post(
    '/v1/operator/bank-accounts/:id/verify',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Verify a bank account pending verification (event bank_account.verified)',
        params: IdParams,
        response: { 200: dataResponse(BankAccountSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const account = await reviewBankAccount(
        app.store.db,
        app.outbox,
        {},
        request.params.id,
        { status: 'verified' },
        app.clock(),
      );
      return { message: 'Bank account verified.', data: presentBankAccount(account) };
    },
  );

  app.post(
    '/v1/operator/bank-accounts/:id/reject',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Reject a bank account pending verification, with a reason (event bank_account.rejected)',
        params: IdParams,
        body: RejectBody,
        response: {
          200: dataResponse(BankAccountSchema),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429),
        },
      },
    },
    async (request) => {
      const account = await reviewBankAccount(
        app.store.db,
        app.outbox,
        {},
        request.params.id,
        { status: 'rejected', reason: request.body.reason.trim() || request.body.reason },
        app.clock(),
      );
      return { message: 'Bank account rejected.', data: presentBankAccount(account) };
    },
  );

  app.post(
    '/v1/test/bank-accounts/:id/verify',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['test mode'],
        summary: 'Test mode: verify one of your (or your submerchants’) bank accounts pending verification',
        params: IdParams,
        response: {
          200: dataResponse(BankAccountSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429, ...codesOf(SUBMERCHANTS_ERRORS, 'TEST_MODE_ONLY')),
        },
      },
    },
    async (request) => {
      if (!callerInTestMode(request)) throw testModeOnly();
      const account = await reviewBankAccount(
        app.store.db,
        app.outbox,
        { merchantId: merchantOf(request).id },
        request.params.id,
        { status: 'verified' },
        app.clock(),
      );
      return { message: 'Bank account verified (test mode).', data: presentBankAccount(account) };
    },
  );
};

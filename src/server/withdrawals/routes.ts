import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import { WITHDRAWALS_ERRORS } from './errors.js';
import { presentCarriedReceivable, presentWithdrawal, presentWithdrawalEntry } from './present.js';
import {
  CarriedReceivableSchema,
  PageQuery,
  RequiredIdempotencyKey,
  TermsSchema,
  WithdrawalBody,
  WithdrawalEntrySchema,
  WithdrawalListQuery,
  WithdrawalSchema,
} from './schemas.js';
import {
  cancelWithdrawal,
  createWithdrawal,
  getWithdrawal,
  listWithdrawals,
  type Withdrawal,
  withdrawalEntries,
  withdrawalReceivables,
  withdrawalTerms,
} from './service.js';

const TAGS = ['withdrawals'];

const created = (withdrawal: Withdrawal) => ({
  message: 'Withdrawal created: its amount and fee are in transit.',
  data: presentWithdrawal(withdrawal),
});

/** Withdrawals: a wallet's available money sent to its owner's bank account, by PIX or TED. */
export const withdrawalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);
  const params = Type.Object({ id: Id });

  app.post(
    '/v1/withdrawals',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: "Withdraw from your wallet (or a submerchant's) to the owner's verified bank account",
        description:
          'Moves amount + fee from available to in_transit and answers 201 with the withdrawal, pending. ' +
          'method defaults to pix when the bank takes part in PIX, ted otherwise. Requires `Idempotency-Key`.',
        headers: RequiredIdempotencyKey,
        body: WithdrawalBody,
        response: {
          201: dataResponse(WithdrawalSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(WITHDRAWALS_ERRORS),
          ),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const withdrawal = await createWithdrawal(app.store.db, app.outbox, {
        merchantId: merchantOf(request).id,
        request: {
          submerchantId: body.submerchant_id,
          bankAccountId: body.bank_account_id,
          amount: body.amount,
          method: body.method,
        },
        now: app.clock(),
        whenCreated: (trx, row) => recordIdempotentResponse(trx, request, 201, created(row)),
      });
      return reply.status(201).send(created(withdrawal));
    },
  );

  app.get(
    '/v1/withdrawals',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: 'List withdrawals (status, submerchant_id; search over ids)',
        querystring: WithdrawalListQuery,
        response: { 200: listResponse(WithdrawalSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { rows, pagination } = await listWithdrawals(app.store.db, merchantOf(request).id, {
        ...toListFilters(request.query),
        submerchantId: request.query.submerchant_id,
      });
      return { message: 'Withdrawals retrieved.', data: rows.map(presentWithdrawal), pagination };
    },
  );

  app.get(
    '/v1/withdrawals/terms',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: 'The minimum withdrawal and the fee of each method, from your pricing',
        response: { 200: dataResponse(TermsSchema), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({
      message: 'Withdrawal terms retrieved.',
      data: await withdrawalTerms(app.store.db, merchantOf(request).id),
    }),
  );

  app.get(
    '/v1/withdrawals/:id',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: 'Read a withdrawal',
        params,
        response: { 200: dataResponse(WithdrawalSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      message: 'Withdrawal retrieved.',
      data: presentWithdrawal(await getWithdrawal(app.store.db, merchantOf(request).id, request.params.id)),
    }),
  );

  app.post(
    '/v1/withdrawals/:id/cancel',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: 'Cancel a pending withdrawal (its amount and fee return to available)',
        description:
          'Only a pending withdrawal is canceled; any other status is 409. Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        params,
        response: {
          200: dataResponse(WithdrawalSchema),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request) => {
      const withdrawal = await cancelWithdrawal(
        app.store.db,
        app.outbox,
        merchantOf(request).id,
        request.params.id,
        app.clock(),
      );
      return { message: 'Withdrawal canceled.', data: presentWithdrawal(withdrawal) };
    },
  );

  app.get(
    '/v1/withdrawals/:id/entries',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: "The withdrawal's ledger entries, oldest first (its wallet's and the platform's)",
        params,
        response: {
          200: dataResponse(Type.Array(WithdrawalEntrySchema)),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const withdrawal = await getWithdrawal(app.store.db, merchantOf(request).id, request.params.id);
      const entries = await withdrawalEntries(app.store.db, withdrawal);
      return { message: 'Entries retrieved.', data: entries.map(presentWithdrawalEntry) };
    },
  );

  app.get(
    '/v1/withdrawals/:id/receivables',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: TAGS,
        summary: 'The settled receivables whose money the withdrawal carried, and how much of each',
        params,
        querystring: PageQuery,
        response: {
          200: listResponse(CarriedReceivableSchema),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const withdrawal = await getWithdrawal(app.store.db, merchantOf(request).id, request.params.id);
      const { rows, pagination } = await withdrawalReceivables(app.store.db, withdrawal, request.query);
      return { message: 'Receivables retrieved.', data: rows.map(presentCarriedReceivable), pagination };
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, listResponse } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import type { RateLimitCategory } from '../http/rate-limit.js';
import { BANK_ACCOUNTS_ERRORS } from './errors.js';
import { presentBankAccount } from './present.js';
import {
  BANK_ACCOUNT_TAGS,
  BankAccountCreateBody,
  BankAccountParams,
  BankAccountSchema,
  bankAccountListQuery,
  DeletedBankAccountSchema,
  SubmerchantBankAccountParams,
  SubmerchantOwnerParams,
} from './schemas.js';
import {
  type BankAccount,
  createBankAccount,
  deleteBankAccount,
  getBankAccount,
  listBankAccounts,
  type Owner,
  requireOwner,
  type Scope,
  setDefaultBankAccount,
} from './service.js';

interface OwnerRoutes {
  /** The collection's path; the account's own path adds `/:bankAccountId`. */
  path: string;
  /** Whose accounts, e.g. "your" or "a submerchant's", for the summaries. */
  whose: string;
  rateLimit: RateLimitCategory;
  ownerParams?: TSchema;
  accountParams: TSchema;
  owner: (request: FastifyRequest) => Owner;
}

const created = (account: BankAccount) => ({
  message: 'Bank account created; it is pending verification.',
  data: presentBankAccount(account),
});

/** One owner's bank accounts: register (Idempotency-Key), list, read, delete, make the default. */
function ownerBankAccountRoutes(options: OwnerRoutes): FastifyPluginAsyncTypebox {
  return async (app) => {
    const scope = (request: FastifyRequest): Scope => ({
      merchantId: merchantOf(request).id,
      owner: options.owner(request),
    });
    const accountId = (request: FastifyRequest) =>
      (request.params as { bankAccountId: string }).bankAccountId;
    const accountPath = `${options.path}/:bankAccountId`;

    app.post(
      options.path,
      {
        ...idempotencyHooks(app),
        config: { auth: 'secret', rateLimit: options.rateLimit },
        schema: {
          tags: BANK_ACCOUNT_TAGS,
          summary: `Register ${options.whose} bank account (pending verification; the first one is the default)`,
          headers: IdempotencyKeyHeaders,
          ...(options.ownerParams && { params: options.ownerParams }),
          body: BankAccountCreateBody,
          response: {
            201: dataResponse(BankAccountSchema),
            ...errorResponses(
              400,
              401,
              403,
              404,
              413,
              415,
              429,
              ...IDEMPOTENCY_CODES,
              ...codesOf(
                BANK_ACCOUNTS_ERRORS,
                'BANK_NOT_FOUND',
                'HOLDER_DOCUMENT_MISMATCH',
                'MERCHANT_DOCUMENT_MISSING',
                'PIX_KEY_BANK_NOT_PARTICIPANT',
                'BANK_ACCOUNT_DUPLICATE',
              ),
            ),
          },
        },
      },
      async (request, reply) => {
        const account = await createBankAccount(app.store.db, app.outbox, {
          merchantId: merchantOf(request).id,
          owner: options.owner(request),
          body: request.body,
          now: app.clock(),
          whenCreated: (trx, account) => recordIdempotentResponse(trx, request, 201, created(account)),
        });
        reply.code(201);
        return created(account);
      },
    );

    app.get(
      options.path,
      {
        config: { auth: 'secret', rateLimit: options.rateLimit },
        schema: {
          tags: BANK_ACCOUNT_TAGS,
          summary: `List ${options.whose} bank accounts (status; search over holder name, document and bank)`,
          ...(options.ownerParams && { params: options.ownerParams }),
          querystring: bankAccountListQuery(),
          response: { 200: listResponse(BankAccountSchema), ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => {
        const owner = options.owner(request);
        await requireOwner(app.store.db, merchantOf(request).id, owner);
        const { accounts, pagination } = await listBankAccounts(
          app.store.db,
          scope(request),
          toListFilters(request.query),
        );
        return { message: 'Bank accounts retrieved.', data: accounts.map(presentBankAccount), pagination };
      },
    );

    app.get(
      accountPath,
      {
        config: { auth: 'secret', rateLimit: options.rateLimit },
        schema: {
          tags: BANK_ACCOUNT_TAGS,
          summary: `Read one of ${options.whose} bank accounts`,
          params: options.accountParams,
          response: { 200: dataResponse(BankAccountSchema), ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => ({
        message: 'Bank account retrieved.',
        data: presentBankAccount(await getBankAccount(app.store.db, scope(request), accountId(request))),
      }),
    );

    app.delete(
      accountPath,
      {
        config: { auth: 'secret', rateLimit: options.rateLimit },
        schema: {
          tags: BANK_ACCOUNT_TAGS,
          summary: `Delete one of ${options.whose} bank accounts (the default too: then there is none)`,
          params: options.accountParams,
          response: {
            200: dataResponse(DeletedBankAccountSchema),
            ...errorResponses(400, 401, 403, 404, 429),
          },
        },
      },
      async (request) => {
        await deleteBankAccount(app.store.db, scope(request), accountId(request), app.clock());
        return { message: 'Bank account deleted.', data: { id: accountId(request), deleted: true as const } };
      },
    );

    app.post(
      `${accountPath}/default`,
      {
        config: { auth: 'secret', rateLimit: options.rateLimit },
        schema: {
          tags: BANK_ACCOUNT_TAGS,
          summary: `Make one of ${options.whose} bank accounts the default (not a rejected one)`,
          params: options.accountParams,
          response: {
            200: dataResponse(BankAccountSchema),
            ...errorResponses(
              400,
              401,
              403,
              404,
              429,
              ...codesOf(BANK_ACCOUNTS_ERRORS, 'BANK_ACCOUNT_REJECTED'),
            ),
          },
        },
      },
      async (request) => ({
        message: 'Default bank account set.',
        data: presentBankAccount(
          await setDefaultBankAccount(app.store.db, scope(request), accountId(request), app.clock()),
        ),
      }),
    );
  };
}

/** The merchant's own bank accounts (its account family: `default` bucket). */
export const merchantBankAccountRoutes = ownerBankAccountRoutes({
  path: '/v1/account/bank-accounts',
  whose: 'your',
  rateLimit: 'default',
  accountParams: BankAccountParams,
  owner: (request) => ({ type: 'merchant', id: merchantOf(request).id }),
});

/** A submerchant's bank accounts (the submerchants family: `queries` bucket). */
export const submerchantBankAccountRoutes = ownerBankAccountRoutes({
  path: '/v1/submerchants/:id/bank-accounts',
  whose: "a submerchant's",
  rateLimit: 'queries',
  ownerParams: SubmerchantOwnerParams,
  accountParams: SubmerchantBankAccountParams,
  owner: (request) => ({ type: 'submerchant', id: (request.params as { id: string }).id }),
});

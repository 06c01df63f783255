import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { listQuerySchema, toListFilters } from '../http/lists.js';
import { presentEntry, presentWallet } from './present.js';
import { EntriesQuery, EntrySchema, WalletSchema } from './schemas.js';
import { ensureMerchantWallet, getWallet, listEntries, listWallets } from './service.js';

/** Wallets: the merchant's and each submerchant's balances, and the ledger entries behind them. */
export const walletRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const params = Type.Object({ id: Id });

  app.get(
    '/v1/wallets',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['wallets'],
        summary: 'List wallets (yours and your submerchants’; search over wallet and owner ids)',
        querystring: listQuerySchema(),
        response: { 200: listResponse(WalletSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const merchant = merchantOf(request);
      await ensureMerchantWallet(app.store.db, merchant.id, app.clock());
      const { rows, pagination } = await listWallets(app.store.db, merchant.id, toListFilters(request.query));
      return { message: 'Wallets retrieved.', data: rows.map(presentWallet), pagination };
    },
  );

  app.get(
    '/v1/wallets/:id',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['wallets'],
        summary: 'Read a wallet',
        params,
        response: { 200: dataResponse(WalletSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const wallet = await getWallet(app.store.db, merchantOf(request).id, request.params.id);
      if (!wallet) throw notFound('Wallet');
      return { message: 'Wallet retrieved.', data: presentWallet(wallet) };
    },
  );

  app.get(
    '/v1/wallets/:id/entries',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['wallets'],
        summary: "A wallet's ledger entries, newest first, each with its source and the balance after it",
        params,
        querystring: EntriesQuery,
        response: { 200: listResponse(EntrySchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const wallet = await getWallet(app.store.db, merchantOf(request).id, request.params.id);
      if (!wallet) throw notFound('Wallet');
      const { rows, pagination } = await listEntries(app.store.db, wallet.id, request.query);
      return { message: 'Entries retrieved.', data: rows.map(presentEntry), pagination };
    },
  );
};

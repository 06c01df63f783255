import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pagination } from '../db/lists.js';
import { notFound } from '../errors.js';
import { dataResponse, errorResponses, listResponse } from '../http/envelope.js';
import { BANKS_SOURCE, findBank, searchBanks } from './catalogue.js';
import { presentBank } from './present.js';
import { BankCodeParams, BankListQuery, BankSchema } from './schemas.js';

const SOURCE_NOTE = `Source: ${BANKS_SOURCE.source}, data of ${BANKS_SOURCE.dataUpdatedAt}.`;

/** The banks a bank account may name (secret key, `queries`): an in-memory list, by COMPE code ascending. */
export const bankRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/banks',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['banks'],
        summary: 'List Brazilian banks (search over name, short name and code), by COMPE code',
        description: SOURCE_NOTE,
        querystring: BankListQuery,
        response: { 200: listResponse(BankSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { page, limit, search, pix_participant } = request.query;
      const found = searchBanks({ search, pixParticipant: pix_participant });
      const offset = (page - 1) * limit;
      return {
        message: 'Banks retrieved.',
        data: found.slice(offset, offset + limit).map(presentBank),
        pagination: pagination({ page, limit }, found.length),
      };
    },
  );

  app.get(
    '/v1/banks/:code',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['banks'],
        summary: 'Read a bank by its COMPE (3 digits) or ISPB (8 digits) code',
        description: SOURCE_NOTE,
        params: BankCodeParams,
        response: { 200: dataResponse(BankSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const bank = findBank(request.params.code);
      if (!bank) throw notFound(`Bank ${request.params.code}`);
      return { message: 'Bank retrieved.', data: presentBank(bank) };
    },
  );
};

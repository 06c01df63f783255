import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { dataResponse, errorResponses, Id, listResponse } from '../../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../../http/idempotency.js';
import { listQuerySchema, toListFilters } from '../../http/lists.js';
import { merchantActor } from '../actors.js';
import { SubmerchantParams } from '../schemas.js';
import { presentAddress } from './present.js';
import { AddressCreateBody, AddressParams, AddressPatchBody, AddressSchema } from './schemas.js';
import { createAddress, deleteAddress, getAddress, listAddresses, updateAddress } from './service.js';

export const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);

  app.post(
    '/v1/submerchants/:id/addresses',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        headers: IdempotencyKeyHeaders,
        summary: 'Add an address (is_primary clears the flag on the others)',
        params: SubmerchantParams,
        body: AddressCreateBody,
        response: {
          201: dataResponse(AddressSchema),
          ...errorResponses(400, 401, 403, 404, 413, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request, reply) => {
      const address = await createAddress(
        app.store.db,
        app.outbox,
        request.params.id,
        merchantActor(request),
        request.body,
        app.clock(),
      );
      reply.code(201);
      return { message: 'Address created.', data: presentAddress(address) };
    },
  );

  app.get(
    '/v1/submerchants/:id/addresses',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: "List a submerchant's addresses",
        params: SubmerchantParams,
        querystring: listQuerySchema(),
        response: { 200: listResponse(AddressSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { addresses, pagination } = await listAddresses(
        app.store.db,
        request.params.id,
        { merchantId: merchantActor(request).id },
        toListFilters(request.query),
      );
      return { message: 'Addresses retrieved.', data: addresses.map(presentAddress), pagination };
    },
  );

  app.get(
    '/v1/submerchants/:id/addresses/:addressId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Read an address',
        params: AddressParams,
        response: { 200: dataResponse(AddressSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const address = await getAddress(app.store.db, request.params.id, request.params.addressId, {
        merchantId: merchantActor(request).id,
      });
      return { message: 'Address retrieved.', data: presentAddress(address) };
    },
  );

  app.patch(
    '/v1/submerchants/:id/addresses/:addressId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Change the given fields of an address',
        params: AddressParams,
        body: AddressPatchBody,
        response: {
          200: dataResponse(AddressSchema),
          ...errorResponses(400, 401, 403, 404, 413, 415, 429),
        },
      },
    },
    async (request) => {
      const address = await updateAddress(
        app.store.db,
        app.outbox,
        request.params.id,
        request.params.addressId,
        merchantActor(request),
        request.body,
        app.clock(),
      );
      return { message: 'Address updated.', data: presentAddress(address) };
    },
  );

  app.delete(
    '/v1/submerchants/:id/addresses/:addressId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Delete an address',
        params: AddressParams,
        response: {
          200: dataResponse(Type.Object({ id: Id, deleted: Type.Boolean() })),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      await deleteAddress(
        app.store.db,
        app.outbox,
        request.params.id,
        request.params.addressId,
        merchantActor(request),
        app.clock(),
      );
      return { message: 'Address deleted.', data: { id: request.params.addressId, deleted: true } };
    },
  );
};

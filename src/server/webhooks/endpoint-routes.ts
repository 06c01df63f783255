import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { businessRule, notFound, validationError } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, listResponse } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { listQuerySchema, toListFilters } from '../http/lists.js';
import { WEBHOOKS_ERRORS } from './errors.js';
import type { WebhooksOptions } from './plugin.js';
import { presentEndpoint } from './present.js';
import {
  DeletedSchema,
  EndpointSchema,
  EndpointWithSecretSchema,
  endpointBodies,
  IdParams,
  WEBHOOK_TAGS,
} from './schemas.js';
import {
  createEndpoint,
  deleteEndpoint,
  type Endpoint,
  listEndpoints,
  regenerateEndpointSecret,
  requireEndpoint,
  updateEndpoint,
} from './service.js';
import { checkWebhookUrl } from './ssrf.js';

/** The URL as stored, or a 400 (not an http(s) URL) / 422 URL_NOT_ALLOWED (the SSRF guard refused it). */
async function acceptableUrl(app: FastifyInstance, raw: string): Promise<string> {
  const checked = await checkWebhookUrl(raw, { allowPrivateTargets: app.config.webhookAllowPrivateTargets });
  if ('url' in checked) return checked.url;
  const details = [{ field: 'url', message: checked.refusal.message }];
  if (checked.refusal.code === 'INVALID_URL') throw validationError(checked.refusal.message, details);
  throw businessRule('URL_NOT_ALLOWED', checked.refusal.message, details);
}

const endpointCreated = ({ endpoint, secret }: { endpoint: Endpoint; secret: string }) => ({
  message: 'Webhook endpoint created. Store its secret now: it is not shown again.',
  data: { ...presentEndpoint(endpoint), secret },
});

/** Merchants' webhook endpoints: register, list, read, change, delete, regenerate the secret (secret key). */
export const endpointRoutes: FastifyPluginAsyncTypebox<WebhooksOptions> = async (app, options) => {
  const bodies = endpointBodies(options.eventTypes);

  app.post(
    '/v1/postbacks/endpoints',
    {
      // A retried registration replays the first answer (secret included, stored sealed) instead of
      // registering a second endpoint that would receive every event twice.
      ...idempotencyHooks(app, { sealResponses: true }),
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Register a webhook endpoint (its secret is shown only in this response)',
        headers: IdempotencyKeyHeaders,
        body: bodies.create,
        response: {
          201: dataResponse(EndpointWithSecretSchema),
          ...errorResponses(400, 401, 403, 415, 429, ...IDEMPOTENCY_CODES, ...codesOf(WEBHOOKS_ERRORS)),
        },
      },
    },
    async (request, reply) => {
      const merchant = merchantOf(request);
      const url = await acceptableUrl(app, request.body.url);
      const { endpoint, secret } = await createEndpoint(app.store.db, {
        merchantId: merchant.id,
        url,
        events: request.body.events,
        masterKey: app.config.webhookMasterKey,
        now: app.clock(),
        whenCreated: (trx, created) => recordIdempotentResponse(trx, request, 201, endpointCreated(created)),
      });
      reply.status(201);
      return endpointCreated({ endpoint, secret });
    },
  );

  app.get(
    '/v1/postbacks/endpoints',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'List webhook endpoints (status active|paused, search over url and id)',
        querystring: listQuerySchema(['active', 'paused']),
        response: { 200: listResponse(EndpointSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { endpoints, pagination } = await listEndpoints(
        app.store.db,
        merchantOf(request).id,
        toListFilters(request.query),
      );
      return { message: 'Webhook endpoints retrieved.', data: endpoints.map(presentEndpoint), pagination };
    },
  );

  app.get(
    '/v1/postbacks/endpoints/:id',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Read a webhook endpoint',
        params: IdParams,
        response: { 200: dataResponse(EndpointSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      message: 'Webhook endpoint retrieved.',
      data: presentEndpoint(await requireEndpoint(app.store.db, merchantOf(request).id, request.params.id)),
    }),
  );

  app.patch(
    '/v1/postbacks/endpoints/:id',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Change url, events or status (active|paused) of a webhook endpoint',
        params: IdParams,
        body: bodies.patch,
        response: {
          200: dataResponse(EndpointSchema),
          ...errorResponses(400, 401, 403, 404, 415, 429, ...codesOf(WEBHOOKS_ERRORS, 'URL_NOT_ALLOWED')),
        },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).id;
      await requireEndpoint(app.store.db, merchantId, request.params.id);
      const url = request.body.url === undefined ? undefined : await acceptableUrl(app, request.body.url);
      const endpoint = await updateEndpoint(
        app.store.db,
        merchantId,
        request.params.id,
        { url, events: request.body.events, status: request.body.status },
        app.clock(),
      );
      if (!endpoint) throw notFound('Webhook endpoint');
      // Deliveries held while it was paused are due again.
      if (request.body.status === 'active') app.outbox.wakeWorkers();
      return { message: 'Webhook endpoint updated.', data: presentEndpoint(endpoint) };
    },
  );

  app.delete(
    '/v1/postbacks/endpoints/:id',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Delete a webhook endpoint (its pending deliveries are dropped)',
        params: IdParams,
        response: { 200: dataResponse(DeletedSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const deleted = await deleteEndpoint(app.store.db, merchantOf(request).id, request.params.id);
      if (!deleted) throw notFound('Webhook endpoint');
      return {
        message: 'Webhook endpoint deleted.',
        data: { id: request.params.id, deleted: true as const },
      };
    },
  );

  app.post(
    '/v1/postbacks/endpoints/:id/secret/regenerate',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Replace the signing secret; the old one stops signing at once',
        params: IdParams,
        response: { 200: dataResponse(EndpointWithSecretSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const regenerated = await regenerateEndpointSecret(app.store.db, {
        merchantId: merchantOf(request).id,
        id: request.params.id,
        masterKey: app.config.webhookMasterKey,
        now: app.clock(),
      });
      if (!regenerated) throw notFound('Webhook endpoint');
      return {
        message: 'Secret regenerated. Store it now: it is not shown again, and the old one no longer signs.',
        data: { ...presentEndpoint(regenerated.endpoint), secret: regenerated.secret },
      };
    },
  );
};

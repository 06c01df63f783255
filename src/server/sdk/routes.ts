import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses, Id } from '../http/envelope.js';

const SdkConfigSchema = Type.Object(
  {
    merchant_id: Id,
    fraud_analysis_mandatory: Type.Boolean({
      description: 'Charges without a fraud_session_id are refused for this merchant.',
    }),
    profiler_enabled: Type.Boolean({ description: 'Whether the SDK should run its device profiler.' }),
    ip_lookup_urls: Type.Array(Type.String(), {
      description: "Public IP lookup URLs the SDK tries before the service's own GET /v1/ip.",
    }),
  },
  { description: "The merchant's SDK settings." },
);

/** What the browser SDK asks the service besides sessions: its settings and the caller's IP. */
export const sdkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/sdk/config',
    {
      config: { auth: 'browser', rateLimit: 'default', cors: true },
      schema: {
        tags: ['sdk'],
        summary: "Check a public key and read the merchant's SDK settings (sdk.init())",
        response: { 200: dataResponse(SdkConfigSchema), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const merchant = merchantOf(request);
      return {
        message: 'SDK configuration retrieved.',
        data: {
          merchant_id: merchant.id,
          fraud_analysis_mandatory: merchant.fraudAnalysisMandatory,
          profiler_enabled: merchant.profilerEnabled,
          ip_lookup_urls: merchant.ipLookupUrls,
        },
      };
    },
  );

  app.get(
    '/v1/ip',
    {
      config: { auth: 'none', rateLimit: 'default', cors: true },
      schema: {
        tags: ['sdk'],
        summary: "The caller's IP address as the service sees it (no authentication)",
        description:
          "The SDK's first-party fallback for its public IP lookup. Answers `{ ip }` alone, not the " +
          '`{ message, data }` envelope, so that it reads like the public lookup services it stands in for.',
        security: [],
        response: { 200: Type.Object({ ip: Type.String() }), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { ip: request.ip };
    },
  );
};

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // Swagger UI sets element styles from its script; no style can run code.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
].join('; ');

/**
 * The OpenAPI 3.1 document is generated from the route schemas; /docs renders it for people. `errorCodes` (every
 * code of the catalogues) becomes the `ErrorCode` schema, which the Node client types its errors' codes with.
 */
export async function registerOpenApi(app: FastifyInstance, errorCodes: readonly string[]): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vigia API',
        version: '1.0.0',
        description:
          'Fraud sessions, charges, card tokens, submerchant onboarding and webhooks. Authenticate with ' +
          'HTTP Basic: your key as the user name and an empty password. Errors share one shape: ' +
          '{ message, error: { code, details? } }. Lists take page, limit (1–100), date_from, date_to, status ' +
          'and search.',
      },
      components: {
        securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } },
        schemas: {
          ErrorCode: {
            type: 'string',
            enum: [...errorCodes],
            description: 'Every error code the API answers with (docs/errors.md says what each means).',
          },
        },
      },
      security: [{ basicAuth: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // /docs shares its origin with /dashboard: no script but the reference's own, and no page may frame it, so
    // nothing loaded here can drive /dashboard/api with a signed-in user's cookie.
    staticCSP: DOCS_CSP,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

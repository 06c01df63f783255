import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI 3.1 document is generated from the route schemas; /docs renders it for people. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      security: [{ basicAuth: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

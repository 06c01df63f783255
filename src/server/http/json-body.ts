import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, with one allowance: a POST or DELETE that has no body but still says
 * `Content-Type: application/json` (what generated clients send) has no body, not an invalid one. Everything
 * else goes to Fastify's own parser (prototype-poisoning protection included).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'POST' || request.method === 'DELETE')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

import type { FastifyInstance } from 'fastify';

/**
 * Deny by default: a /v1 route registered without an auth decision (`config.auth`) would be public, and one
 * without a rate-limit category unmetered, by omission. Refuse to start instead, naming the route.
 */
export function requireRouteDecisions(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1')) return;
    const missing = [
      route.config?.auth === undefined && 'config.auth',
      route.config?.rateLimit === undefined && 'config.rateLimit',
    ].filter(Boolean);
    if (missing.length > 0) {
      const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
      throw new Error(`Route ${methods} ${route.url} must declare ${missing.join(' and ')}.`);
    }
  });
}

import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';
import { type DashboardLocale, negotiateLocale } from './preferences.js';

/** The built frontend (`npm run build:sdk` builds it with the SDK; rollup.config.mjs). */
export const DASHBOARD_DIST = path.resolve(import.meta.dirname, '../../dashboard/dist');

// No inline script or style, nothing from another origin; the API is same-origin.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the page says before its script runs, in the language the browser asks for (Accept-Language). */
const LOADING: Record<DashboardLocale, { title: string; loading: string }> = {
  'pt-BR': { title: 'Painel Vigia', loading: 'Carregando o painel…' },
  en: { title: 'Vigia dashboard', loading: 'Loading the dashboard…' },
};

const indexHtml = (locale: DashboardLocale) => `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${LOADING[locale].title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script type="module" src="/dashboard/assets/main.js"></script>
</head>
<body><div id="app"><p class="loading">${LOADING[locale].loading}</p></div></body>
</html>
`;

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers({
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  });
}

/**
 * The single page: every /dashboard path answers the same HTML (the frontend routes on the path), and
 * /dashboard/assets serves the bundles. Entry files keep their names, so they are revalidated; chunks carry a
 * content hash and are cached for good.
 */
export const dashboardPages: FastifyPluginAsync = async (app) => {
  await app.register(fastifyStatic, {
    root: DASHBOARD_DIST,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    list: false,
    cacheControl: false,
    dotfiles: 'deny',
    allowedPath: (pathname) => !pathname.endsWith('/'),
    setHeaders: (res, filePath) => {
      const hashed = path.resolve(filePath).startsWith(path.join(DASHBOARD_DIST, 'chunks') + path.sep);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const page = async (request: FastifyRequest, reply: FastifyReply) =>
    securityHeaders(reply)
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Language')
      .type('text/html; charset=utf-8')
      .send(indexHtml(negotiateLocale(request.headers['accept-language'])));
  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    // Unknown API paths and missing assets are errors, not the page.
    if (/^\/dashboard\/(api|assets)\//.test(request.url)) {
      return reply
        .status(404)
        .send(errorBody('NOT_FOUND', `There is nothing at ${request.url.split('?')[0]}.`));
    }
    return page(request, reply);
  });
};

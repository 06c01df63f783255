import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { errorBody } from '../errors.js';

const SHORT_CACHE = 'public, max-age=300';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Pages on any origin load these files (a module script or its chunks cross-origin needs CORS), so every
 * answer allows any origin. The entry files keep their names across releases: a short cache lets a release
 * reach buyers within minutes. Chunks carry a content hash in their name: cached for good.
 */
function assetHeaders(chunksDirs: string[]) {
  return (res: { setHeader(name: string, value: string): void }, filePath: string) => {
    const file = path.resolve(filePath);
    const immutable = chunksDirs.some((dir) => file.startsWith(dir + path.sep));
    res.setHeader('Cache-Control', immutable ? IMMUTABLE : SHORT_CACHE);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  };
}

const IIFE_FILES = new Set(['/sdk.js', '/sdk.js.map']);
/** The script-tag build's profiler chunk, which `sdk.js` loads from beside itself. */
const IIFE_CHUNK = /^\/chunks\/profiler-[\w-]+\.js(?:\.map)?$/;

/**
 * The SDK builds under /sdk/v1/: `sdk.js` (script tag, `window.Sdk`) with its `chunks/`, and `esm/` (ES
 * modules, code-split).
 * A missing build (`npm run build:sdk` not run yet) answers 404 in the API's error shape.
 */
async function sdkFiles(app: FastifyInstance, options: { distDir: string }): Promise<void> {
  const esmDir = path.resolve(options.distDir, 'esm');
  const iifeDir = path.resolve(options.distDir, 'iife');
  const common = {
    decorateReply: false,
    index: false,
    redirect: false,
    list: false,
    cacheControl: false,
    dotfiles: 'deny',
    setHeaders: assetHeaders([path.join(esmDir, 'chunks'), path.join(iifeDir, 'chunks')]),
  } as const;

  app.setNotFoundHandler((request, reply) => {
    const file = request.url.split('?')[0];
    const built = fs.existsSync(options.distDir);
    reply
      .status(404)
      .send(
        errorBody(
          'NOT_FOUND',
          built
            ? `There is no SDK file at ${file}.`
            : `There is no SDK file at ${file}: the SDK is not built (run \`npm run build:sdk\`).`,
        ),
      );
  });

  // @fastify/static only warns about a missing root and answers 404 until the build appears.
  await app.register(fastifyStatic, {
    ...common,
    root: esmDir,
    prefix: '/esm/',
    // Files only: a directory would otherwise answer 403.
    allowedPath: (pathname) => !pathname.endsWith('/'),
  });
  await app.register(fastifyStatic, {
    ...common,
    root: iifeDir,
    prefix: '/',
    allowedPath: (pathname) => IIFE_FILES.has(pathname) || IIFE_CHUNK.test(pathname),
  });
}

export const sdkAssets: FastifyPluginAsync<{ distDir?: string }> = async (app, options) => {
  await app.register(sdkFiles, { prefix: '/sdk/v1', distDir: options.distDir ?? app.config.sdkDistDir });
};

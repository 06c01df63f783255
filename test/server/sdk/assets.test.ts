import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';

const FILES: Record<string, string> = {
  'iife/sdk.js': 'var Sdk=function(){return 1}();',
  'iife/sdk.js.map': '{"version":3}',
  'iife/chunks/profiler-Ef56Gh78.js': 'globalThis.__vigiaProfiler=function(){};',
  'iife/chunks/profiler-Ef56Gh78.js.map': '{"version":3}',
  'iife/other.js': 'var x=1;',
  'esm/index.js': 'export class Sdk{}',
  'esm/chunks/profiler-Ab12Cd34.js': 'export const p=1;',
  'types/index.d.ts': 'export declare class Sdk {}',
};

describe.each(DIALECTS)('%s', (dialect) => {
  let distDir: string;
  let app: VigiaApp;

  beforeAll(async () => {
    distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigia-sdk-dist-'));
    for (const [file, content] of Object.entries(FILES)) {
      await fs.mkdir(path.dirname(path.join(distDir, file)), { recursive: true });
      await fs.writeFile(path.join(distDir, file), content);
    }
    app = await startApp(await freshDatabaseUrl(dialect), { config: { sdkDistDir: distDir } });
  });
  afterAll(() => fs.rm(distDir, { recursive: true, force: true }));

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  test('/sdk/v1/sdk.js is the IIFE build, short-cached, for any origin, without a key', async () => {
    const response = await get('/sdk/v1/sdk.js', { origin: 'https://shop.example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(FILES['iife/sdk.js']);
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await get('/sdk/v1/sdk.js.map')).statusCode).toBe(200);
  });

  test('/sdk/v1/esm/index.js is short-cached; hashed chunks are cached for good', async () => {
    const entry = await get('/sdk/v1/esm/index.js');
    expect(entry.statusCode).toBe(200);
    expect(entry.body).toBe(FILES['esm/index.js']);
    expect(entry.headers['cache-control']).toBe('public, max-age=300');
    expect(entry.headers['access-control-allow-origin']).toBe('*');
    const chunk = await get('/sdk/v1/esm/chunks/profiler-Ab12Cd34.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers['access-control-allow-origin']).toBe('*');
  });

  test("/sdk/v1/chunks/ holds the script-tag build's profiler chunk, cached for good, for any origin", async () => {
    // sdk.js adds it with crossorigin="anonymous" and an integrity hash: a CORS request from the shop's page.
    const chunk = await get('/sdk/v1/chunks/profiler-Ef56Gh78.js', { origin: 'https://shop.example.com' });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.body).toBe(FILES['iife/chunks/profiler-Ef56Gh78.js']);
    expect(chunk.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers['access-control-allow-origin']).toBe('*');
    expect((await get('/sdk/v1/chunks/profiler-Ef56Gh78.js.map')).statusCode).toBe(200);
  });

  test('a release is served at once: files are read per request', async () => {
    await fs.writeFile(path.join(distDir, 'esm/chunks/profiler-New98765.js'), 'export const p=2;');
    expect((await get('/sdk/v1/esm/chunks/profiler-New98765.js')).body).toBe('export const p=2;');
  });

  test('nothing else of dist is served, and unknown files are 404 in the error shape', async () => {
    for (const url of [
      '/sdk/v1/types/index.d.ts',
      '/sdk/v1/iife/sdk.js',
      '/sdk/v1/other.js',
      '/sdk/v1/chunks/',
      '/sdk/v1/chunks/../other.js',
      '/sdk/v1/chunks/profiler-Missing1.js',
      '/sdk/v1/esm/../types/index.d.ts',
      '/sdk/v1/esm/%2e%2e/types/index.d.ts',
      '/sdk/v1/esm/missing.js',
      '/sdk/v1/esm/',
      '/sdk/v1/',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('NOT_FOUND');
    }
  });

  test('without a build the app still starts and the SDK files answer 404 saying so', async () => {
    const missing = path.join(distDir, 'not-built');
    const bare = await startApp(await freshDatabaseUrl(dialect), { config: { sdkDistDir: missing } });
    const response = await bare.inject({ method: 'GET', url: '/sdk/v1/sdk.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'There is no SDK file at /sdk/v1/sdk.js: the SDK is not built (run `npm run build:sdk`).',
      error: { code: 'NOT_FOUND' },
    });
    expect((await bare.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';
import { sdkDist } from '../lib/sdk-dist.js';

// The service (its own origin) and a checkout page on a second origin, as a merchant's site would be: the page
// server serves the built SDK (ESM and IIFE), an empty page, and a stand-in for the public IP lookup.
const { app, stopOnSigterm } = await startBenchApp();
const { merchant, publicKey } = await createMerchant(app.store.db, {
  name: 'Bench',
  live: false,
  now: new Date(),
});
// The public-key bucket is per (merchant, buyer IP), and every call here comes from 127.0.0.1.
await updateMerchantSettings(app.store.db, merchant.id, { rateLimits: { default: 100_000_000 } }, new Date());
const service = await listenLocally(app);

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Vigia setup() latency</title></head>
<body><p>setup() latency benchmark: the harness drives this page.</p></body>
</html>
`;
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json' };

/** A file under dist/esm or dist/iife for /sdk/esm/… and /sdk/iife/…, never anything outside them. */
function sdkFile(urlPath: string): string | null {
  const match = /^\/sdk\/(esm|iife)\/([\w./-]+)$/.exec(urlPath);
  if (!match) return null;
  const root = path.join(sdkDist, match[1]!);
  const file = path.resolve(root, match[2]!);
  return file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
}

const pages = http.createServer((request, response) => {
  const urlPath = new URL(request.url ?? '/', 'http://page').pathname;
  if (request.method !== 'GET') {
    response.writeHead(405).end();
  } else if (urlPath === '/') {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(PAGE);
  } else if (urlPath === '/ip') {
    // Stands in for the public IP lookup (the machine has no internet), as the demo's does.
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end('{"ip":"203.0.113.10"}');
  } else {
    const file = sdkFile(urlPath);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    fs.createReadStream(file).pipe(response);
  }
});
await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));

console.log(
  JSON.stringify({ service, page: `http://127.0.0.1:${(pages.address() as AddressInfo).port}`, publicKey }),
);
stopOnSigterm(() => {
  pages.closeAllConnections();
  return new Promise((resolve) => pages.close(resolve));
});

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startDisplay } from './efficacy/display.js';
import { type Engine, launchHuman } from './efficacy/humans.js';

/**
 * Issue 22 §3: how large is the input of FingerprintJS's visitor id (`componentsToCanonicalString` of every
 * component) in each engine here? `npx tsx bench/visitor-canonical-size.ts [out.json]` opens a page in Chromium,
 * Firefox ESR and WebKitGTK (headful under Xvfb, no driver), which runs FingerprintJS 5 and posts back the
 * canonical string, its UTF-8 size, the size of each component and the visitor id. With an output path, it also
 * writes every engine's canonical string and id: the vectors `test/server/risk/murmur.test.ts` checks against.
 */
const FINGERPRINTJS = path.join(
  import.meta.dirname,
  '../node_modules/@fingerprintjs/fingerprintjs/dist/fp.esm.js',
);

// The page rebuilds the canonical string as FingerprintJS 5.2 does (sorted keys, `key:JSON(value)` or
// `key:error`, `|`-joined, `:|\` escaped in keys) and checks it against the library's own hash.
const PAGE = `<!doctype html><meta charset="utf-8"><title>canonical</title><script type="module">
import FingerprintJS, { hashComponents } from '/fp.esm.js';
const agent = await FingerprintJS.load({ monitoring: false });
const result = await agent.get();
let canonical = '';
const sizes = {};
for (const key of Object.keys(result.components).sort()) {
  const component = result.components[key];
  const value = 'error' in component ? 'error' : JSON.stringify(component.value);
  const part = key.replace(/([:|\\\\])/g, '\\\\$1') + ':' + value;
  sizes[key] = new TextEncoder().encode(part).length;
  canonical += (canonical ? '|' : '') + part;
}
await fetch('/result', { method: 'POST', body: JSON.stringify({
  userAgent: navigator.userAgent,
  visitorId: result.visitorId,
  sameAsLibrary: hashComponents(result.components) === result.visitorId,
  bytes: new TextEncoder().encode(canonical).length,
  sizes,
  canonical,
}) });
</script>`;

interface Measure {
  userAgent: string;
  visitorId: string;
  sameAsLibrary: boolean;
  bytes: number;
  sizes: Record<string, number>;
  canonical: string;
}

async function measure(engine: Engine, display: string): Promise<Measure> {
  let resolve!: (measure: Measure) => void;
  const answered = new Promise<Measure>((done) => {
    resolve = done;
  });
  const server = http.createServer((request, response) => {
    if (request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.end('ok');
        resolve(JSON.parse(body) as Measure);
      });
      return;
    }
    const script = request.url === '/fp.esm.js';
    response.setHeader('content-type', script ? 'text/javascript' : 'text/html');
    response.end(script ? fs.readFileSync(FINGERPRINTJS) : PAGE);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `canonical-${engine}-`));
  const browser = launchHuman(engine, { display, profile, url: `http://127.0.0.1:${port}/` });
  try {
    return await Promise.race([
      answered,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${engine} did not answer in 60 s`)), 60_000),
      ),
    ]);
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const { display, stop } = await startDisplay();
const vectors: { engine: Engine; canonical: string; visitorId: string }[] = [];
try {
  for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
    const result = await measure(engine, display);
    const largest = Object.entries(result.sizes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([key, bytes]) => `${key} ${bytes}`)
      .join(', ');
    console.log(
      `${engine}: ${result.bytes} B canonical (${Object.keys(result.sizes).length} components), ` +
        `id ${result.visitorId} (library agrees: ${result.sameAsLibrary}); largest: ${largest}`,
    );
    vectors.push({ engine, canonical: result.canonical, visitorId: result.visitorId });
  }
} finally {
  await stop();
}
if (process.argv[2]) fs.writeFileSync(process.argv[2], `${JSON.stringify(vectors, null, 1)}\n`);

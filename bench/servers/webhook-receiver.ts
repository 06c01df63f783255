import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { verifySignature } from '../../src/server/webhooks/signature.js';

// A merchant's webhook receiver in its own process: POST /hook reads the body, verifies the signature (as a
// careful receiver does) and answers 200. The benchmark drives it through /secret, /reset and /stats.

let secret = '';
let stats = fresh();

function fresh() {
  return {
    received: 0,
    verified: 0,
    badSignature: 0,
    firstAtMs: 0,
    lastAtMs: 0,
    eventIds: new Set<string>(),
  };
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function answer(response: http.ServerResponse, status: number, value: unknown = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

const server = http.createServer(async (request, response) => {
  const body = await readBody(request);
  switch (`${request.method} ${request.url}`) {
    case 'POST /hook': {
      const now = performance.timeOrigin + performance.now();
      stats.received++;
      if (stats.received === 1) stats.firstAtMs = now;
      stats.lastAtMs = now;
      const header = request.headers['x-service-signature'];
      if (!verifySignature(body, typeof header === 'string' ? header : undefined, secret)) {
        stats.badSignature++;
        return answer(response, 401);
      }
      stats.verified++;
      stats.eventIds.add(String(request.headers['x-service-event-id']));
      return answer(response, 200);
    }
    case 'POST /secret':
      secret = JSON.parse(body.toString('utf8')).secret;
      return answer(response, 204);
    case 'POST /reset':
      stats = fresh();
      return answer(response, 204);
    case 'GET /stats': {
      const { eventIds, ...counts } = stats;
      return answer(response, 200, { ...counts, distinctEvents: eventIds.size });
    }
    default:
      return answer(response, 404);
  }
});
// Keep the worker's connections open between deliveries, as a production receiver behind a proxy does.
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ hook: `http://127.0.0.1:${port}/hook`, control: `http://127.0.0.1:${port}` }));
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

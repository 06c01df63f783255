import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/** What the failing server does with the n-th request it gets (0-based). */
export type Step =
  | 'forward'
  /** Close the connection without an answer: the service never sees the request. */
  | 'reset'
  /** Let the service do the work, then close the connection: the answer is lost on the way back. */
  | 'forward-then-reset'
  /** Hold the request this long, then forward it (a slow service); a client that gave up leaves it unanswered. */
  | { delayMs: number }
  | { status: number; code?: string; retryAfter?: string };

export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  at: number;
}

const servers: http.Server[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A real HTTP server in front of the service that fails on purpose, as a flaky network or a busy service does:
 * it plays `plan` (one step per request, 'forward' once the plan runs out) and records what it was sent.
 */
export async function failingServer(upstream: string, plan: Step[] = []) {
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = request.headers['idempotency-key'];
    seen.push({
      method: request.method ?? '',
      path: request.url ?? '',
      idempotencyKey: typeof key === 'string' ? key : undefined,
      at: Date.now(),
    });
    const step = plan[seen.length - 1] ?? 'forward';
    if (step === 'reset') {
      request.socket.destroy();
      return;
    }
    if (typeof step === 'object' && 'delayMs' in step) {
      await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      if (request.socket.destroyed) return;
    } else if (typeof step === 'object') {
      const code = step.code ?? (step.status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR');
      response.writeHead(step.status, {
        'content-type': 'application/json',
        'x-request-id': `failing-${seen.length}`,
        ...(step.retryAfter !== undefined && { 'retry-after': step.retryAfter }),
      });
      response.end(JSON.stringify({ message: `Failing on purpose (${code}).`, error: { code } }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ),
    ) as Record<string, string>;
    const answer = await fetch(upstream + request.url, {
      method: request.method,
      headers,
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    const text = await answer.text();
    if (step === 'forward-then-reset') {
      request.socket.destroy();
      return;
    }
    const relayed: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after', 'x-request-id', 'idempotent-replayed']) {
      const value = answer.headers.get(name);
      if (value !== null) relayed[name] = value;
    }
    response.writeHead(answer.status, relayed);
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

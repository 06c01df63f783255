// Webhook receivers on loopback, each with a temperament: prompt, slow, failing half the time, or a black hole
// that accepts the connection and never answers.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Temperament = 'prompt' | 'slow' | 'flaky' | 'blackhole';

/** How long the slow receiver takes to answer. */
export const SLOW_ANSWER_MS = 1_500;

export interface Receiver {
  readonly name: string;
  readonly temperament: Temperament;
  readonly url: string;
  /** Event id → the times (ms since epoch) a delivery of it was answered 2xx. */
  readonly received: Map<string, number[]>;
  /** Requests that reached it, answered or not. */
  requests: number;
  close(): Promise<void>;
}

/**
 * `flaky` fails (500) the first attempt of half the events, chosen at random per event, and accepts the retry:
 * the service's first retry comes after 5 s, its next after 5 min (webhooks/retry-schedule.ts), so a receiver
 * failing every attempt at random would leave a run waiting minutes for its last events.
 */
export async function startReceiver(name: string, temperament: Temperament): Promise<Receiver> {
  const received = new Map<string, number[]>();
  const failedOnce = new Set<string>();
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    name,
    temperament,
    url: '',
    received,
    requests: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.requests++;
      if (temperament === 'blackhole') return; // never answered; the socket is destroyed on close
      let eventId = '';
      try {
        eventId = String((JSON.parse(Buffer.concat(chunks).toString()) as { id?: unknown }).id ?? '');
      } catch {
        // not an event: answered 400 below
      }
      if (!eventId) return void response.writeHead(400).end();
      if (temperament === 'flaky' && !failedOnce.has(eventId) && !received.has(eventId)) {
        if (Math.random() < 0.5) {
          failedOnce.add(eventId);
          return void response.writeHead(500).end('flaky receiver: try again');
        }
      }
      const accept = () => {
        received.set(eventId, [...(received.get(eventId) ?? []), Date.now()]);
        response.writeHead(200).end('ok');
      };
      if (temperament === 'slow') setTimeout(accept, SLOW_ANSWER_MS);
      else accept();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

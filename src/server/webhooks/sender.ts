import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkUrlShape, guardedLookup, type Resolver, systemResolver } from './ssrf.js';

export interface SendResult {
  /** The receiver's HTTP status, or null when no response arrived. */
  status: number | null;
  /** Why the attempt failed without a response (timeout, refused connection, blocked address, …). */
  error: string | null;
  latencyMs: number;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Sockets per receiver host; matches the worker's concurrency. */
  maxSocketsPerHost: number;
  resolve?: Resolver;
}

const USER_AGENT = 'Vigia-Webhooks/1.0';

/** A short reason for the attempt log; never includes the request (its body or signature). */
function describeError(error: NodeJS.ErrnoException, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `No complete response within ${timeoutMs} ms (timeout).`;
  switch (error.code) {
    case 'EBLOCKEDADDRESS':
      return error.message;
    case 'ECONNREFUSED':
      return 'The connection was refused.';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'The connection was closed by the receiver before it answered.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name could not be resolved.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host is unreachable.';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message || 'The request failed.';
  }
}

/**
 * POSTs webhook payloads over keep-alive connections. In production mode every new connection goes through
 * the SSRF guard's lookup; redirects are not followed (a 3xx is a failed attempt).
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: ReturnType<typeof guardedLookup> | undefined;

  constructor(private readonly options: SenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost, maxFreeSockets: 16 };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    this.lookup = options.allowPrivateTargets ? undefined : guardedLookup(options.resolve ?? systemResolver);
  }

  async send(rawUrl: string, body: Buffer, headers: Record<string, string>): Promise<SendResult> {
    const first = await this.sendOnce(rawUrl, body, headers);
    // A kept-alive socket the receiver closed just as we reused it: that request never reached it; resend once.
    if (first.reusedSocketReset) return this.sendOnce(rawUrl, body, headers);
    return first;
  }

  private sendOnce(
    rawUrl: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<SendResult & { reusedSocketReset?: boolean }> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const shaped = checkUrlShape(rawUrl, { allowPrivateTargets: this.options.allowPrivateTargets });
    if ('refusal' in shaped) {
      return Promise.resolve({ status: null, error: shaped.refusal.message, latencyMs: 0 });
    }
    const { url } = shaped;
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      let timedOut = false;
      const finish = (result: SendResult & { reusedSocketReset?: boolean }) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          'User-Agent': USER_AGENT,
        },
        ...(this.lookup && { lookup: this.lookup }),
      });
      // One deadline for the whole exchange: connect, send, response head and body.
      const timer = setTimeout(() => {
        timedOut = true;
        request.destroy(new Error('timeout'));
      }, this.options.timeoutMs);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const latencyMs = elapsed();
        // The body is not needed; read it to the end so the socket can be reused.
        response.resume();
        response.on('end', () => {
          clearTimeout(timer);
          finish({ status, error: null, latencyMs });
        });
        response.on('error', () => {
          clearTimeout(timer);
          finish({ status, error: null, latencyMs });
        });
        response.on('close', () => {
          clearTimeout(timer);
          finish({ status, error: null, latencyMs });
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const reusedSocketReset = request.reusedSocket && error.code === 'ECONNRESET' && !timedOut;
        finish({
          status: null,
          error: describeError(error, this.options.timeoutMs, timedOut),
          latencyMs: elapsed(),
          reusedSocketReset,
        });
      });
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

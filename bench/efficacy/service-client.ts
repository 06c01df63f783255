import type { ProfilerReport } from '../../src/sdk/src/profiler/types.js';
import { basic } from '../../test/helpers/merchants.js';
import type { Buyer, Checkout } from './buyers.js';
import type { Outcome } from './lab.js';

// The user agent a no-browser script claims (test/helpers/charges.ts has it too, but it loads vitest's hooks,
// which a benchmark outside vitest cannot).
export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** How a script with no browser poses as a page: the headers it sends and the session body it claims. */
export interface Pose {
  headers: Record<string, string>;
  sessionBody: Record<string, unknown>;
}

/** The plain pose: a Chrome user agent and an Origin, nothing else a browser sends. */
export const CHROME_POSE: Pose = {
  headers: { 'user-agent': CHROME_UA, origin: 'http://127.0.0.1' },
  sessionBody: {
    ip_address: null,
    type: 'Chrome',
    host_name: '127.0.0.1',
    cookies_accepted: true,
    user_agent: CHROME_UA,
  },
};

/** A merchant's two keys over real HTTP: the public key as a page (or a script posing as one), the secret as its backend. */
export function serviceClient(service: string, keys: { secretKey: string; publicKey: string }) {
  const call = async <T>(
    key: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const response = await fetch(`${service}${path}`, {
      method,
      headers: {
        ...headers,
        authorization: basic(key),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data: T; message: string };
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };

  return {
    publicKey: keys.publicKey,
    /** The merchant's backend: charges the page's card token for `buyer` with the session, reads the session. */
    async chargeAndRead(
      sessionId: string,
      cardToken: string,
      buyer: Buyer,
    ): Promise<Omit<Outcome, 'setupToSignalsMs' | 'userAgent'>> {
      const charge = await call<{
        customer: Buyer;
        fraud_analysis: { status: Outcome['status']; score: number; reasons: string[] };
      }>(keys.secretKey, 'POST', '/v1/charges', {
        amount: 1990,
        payment_method: 'credit_card',
        card_token: cardToken,
        fraud_session_id: sessionId,
        customer: buyer,
      });
      const session = await this.readSession(sessionId);
      const profiler = session.signals?.profiler ?? null;
      return {
        sessionId,
        ...charge.fraud_analysis,
        buyer: charge.customer,
        visitorId: session.signals?.visitor_id ?? null,
        detectors: profiler?.detectors ?? {},
        botDetected: profiler ? profiler.bot.detected : null,
      };
    },
    readSession: (sessionId: string) =>
      call<{
        signals: null | { visitor_id: string | null; profiler: null | ProfilerReport; ip_lookup: unknown };
      }>(keys.secretKey, 'GET', `/v1/fraud/sessions/${sessionId}`),
    /** What a script does in place of the page's `cards.tokenize()`: the public key over HTTP. */
    tokenize: async (card: Checkout['card'], pose: Pose = CHROME_POSE) =>
      (
        await call<{ id: string }>(
          keys.publicKey,
          'POST',
          '/v1/tokens',
          { card: { ...card, exp_month: Number(card.exp_month), exp_year: Number(card.exp_year) } },
          pose.headers,
        )
      ).id,
    /**
     * What a script with no browser does: creates a session with the public key as `pose`, waits `delayMs`
     * (as a profiler would take), then posts `signals` carrying the session's `signals_token`.
     */
    async postSignalsWithoutBrowser(
      signals: Record<string, unknown>,
      { pose = CHROME_POSE, delayMs = 0 }: { pose?: Pose; delayMs?: number } = {},
    ): Promise<string> {
      const created = await call<{ sessionId: string; signals_token?: string }>(
        keys.publicKey,
        'POST',
        '/v1/fraud/sessions',
        pose.sessionBody,
        pose.headers,
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const token = created.signals_token ? { signals_token: created.signals_token } : {};
      await call(
        keys.publicKey,
        'POST',
        `/v1/fraud/sessions/${created.sessionId}/signals`,
        { ...signals, ...token },
        pose.headers,
      );
      return created.sessionId;
    },
  };
}
export type ServiceClient = ReturnType<typeof serviceClient>;

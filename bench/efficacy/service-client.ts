import type { ProfilerReport } from '../../src/sdk/src/profiler/types.js';
import { basic } from '../../test/helpers/merchants.js';
import type { Outcome } from './lab.js';

// test/helpers/charges.ts has these too, but it loads vitest's hooks, which a benchmark outside vitest cannot.
const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const APPROVED_CARD = {
  number: '4111111111111111',
  holder_name: 'Maria Silva',
  exp_month: 12,
  exp_year: 2030,
  cvv: '123',
};
const BUYER = { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725' };

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
        authorization: basic(key),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data: T; message: string };
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const asPage = { 'user-agent': CHROME_UA, origin: 'http://127.0.0.1' };

  return {
    publicKey: keys.publicKey,
    /** The merchant's backend: tokenises the approved test card, charges it with the session, reads the session. */
    async chargeAndRead(sessionId: string): Promise<Omit<Outcome, 'setupToSignalsMs' | 'userAgent'>> {
      const token = await call<{ id: string }>(keys.publicKey, 'POST', '/v1/tokens', { card: APPROVED_CARD });
      const charge = await call<{
        fraud_analysis: { status: Outcome['status']; score: number; reasons: string[] };
      }>(keys.secretKey, 'POST', '/v1/charges', {
        amount: 1990,
        payment_method: 'credit_card',
        card_token: token.id,
        fraud_session_id: sessionId,
        customer: BUYER,
      });
      const session = await this.readSession(sessionId);
      const profiler = session.signals?.profiler ?? null;
      return {
        sessionId,
        ...charge.fraud_analysis,
        visitorId: session.signals?.visitor_id ?? null,
        detectors: profiler?.detectors ?? {},
        botDetected: profiler ? profiler.bot.detected : null,
      };
    },
    readSession: (sessionId: string) =>
      call<{
        signals: null | { visitor_id: string | null; profiler: null | ProfilerReport; ip_lookup: unknown };
      }>(keys.secretKey, 'GET', `/v1/fraud/sessions/${sessionId}`),
    /**
     * What a script with no browser does: creates a session with the public key as a Chrome page would, then
     * posts `signals` (carrying the session's `signals_token` when the service issues one).
     */
    async postSignalsWithoutBrowser(signals: Record<string, unknown>): Promise<string> {
      const created = await call<{ sessionId: string; signals_token?: string }>(
        keys.publicKey,
        'POST',
        '/v1/fraud/sessions',
        {
          ip_address: null,
          type: 'Chrome',
          host_name: '127.0.0.1',
          cookies_accepted: true,
          user_agent: CHROME_UA,
        },
        asPage,
      );
      const token = created.signals_token ? { signals_token: created.signals_token } : {};
      await call(
        keys.publicKey,
        'POST',
        `/v1/fraud/sessions/${created.sessionId}/signals`,
        { ...signals, ...token },
        asPage,
      );
      return created.sessionId;
    },
  };
}
export type ServiceClient = ReturnType<typeof serviceClient>;

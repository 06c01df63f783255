import { createHash } from 'node:crypto';
import { CHROME_UA } from '../../test/helpers/charges.js';
import { buyerSignals, openBuyerSession } from '../lib/buyer.js';
import type { RequestSpec } from '../lib/load.js';
import { basic, startWriteServer, update } from '../lib/write-server.js';

// Our POST /v1/fraud/sessions/:id/signals (public key, CORS, validation of a 16 KiB-bounded report, one
// conditional UPDATE) against the same UPDATE through a prepared statement, and a bare route answering the same
// JSON. A session takes one report, so every request reports for a fresh session of the pool.

await startWriteServer({
  route: '/v1/fraud/sessions/:id/signals',
  headers: (merchant) => ({
    authorization: basic(merchant.publicKey),
    'content-type': 'application/json',
    origin: 'https://shop.example.com',
    'user-agent': CHROME_UA,
  }),
  request: {
    async pool({ app, merchant }, count) {
      const requests: RequestSpec[] = [];
      await app.store.db.transaction().execute(async (trx) => {
        for (let index = 0; index < count; index++) {
          const { session, signalsToken, challenge } = await openBuyerSession(trx, merchant.id, new Date());
          requests.push({
            path: `/v1/fraud/sessions/${session.id}/signals`,
            body: JSON.stringify({ signals_token: signalsToken, ...buyerSignals(challenge) }),
          });
        }
      });
      return { requests, rows: { fraud_sessions: requests.map((request) => request.path.split('/')[4]!) } };
    },
  },
  referenceWrites: ({ merchantId, params, body, now }) => {
    const { signals_token: token, ...report } = body as {
      signals_token: string;
      profiler: { visitor_id: string };
    };
    const at = now.toISOString();
    return [
      update(
        'fraud_sessions',
        {
          signals: JSON.stringify(report),
          signals_at: at,
          signals_ip_address: '127.0.0.1',
          signals_user_agent: CHROME_UA,
          visitor_id: report.profiler.visitor_id,
          automation: 0,
          updated_at: at,
        },
        {
          id: params.id,
          merchant_id: merchantId,
          signals_token_hash: createHash('sha256').update(token).digest('hex'),
        },
        { text: 'signals_at is null and consumed_at is null and expires_at > ?', values: [at] },
      ),
    ];
  },
});

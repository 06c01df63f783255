import { randomUUID } from 'node:crypto';
import { CHROME_UA } from '../../test/helpers/charges.js';
import { basic, insert, startWriteServer } from '../lib/write-server.js';

// Our POST /v1/fraud/sessions (public key, CORS, validation, ua-parser reading, one INSERT) against the same
// INSERT through a prepared statement, and a bare route answering the same JSON.
const declared = {
  ip_address: null,
  type: 'Chrome',
  host_name: 'shop.example.com',
  cookies_accepted: true,
  user_agent: CHROME_UA,
};
// What ours stores of its ua-parser readings for this user agent, kept constant by the reference.
const readings = JSON.stringify({ declared: { type: 'Chrome' }, header: { type: 'Chrome' } });

await startWriteServer({
  route: '/v1/fraud/sessions',
  headers: (merchant) => ({
    authorization: basic(merchant.publicKey),
    'content-type': 'application/json',
    origin: 'https://shop.example.com',
    'user-agent': CHROME_UA,
  }),
  request: async () => ({ path: '/v1/fraud/sessions', body: JSON.stringify(declared) }),
  referenceWrites: ({ merchantId, now }) => [
    insert('fraud_sessions', {
      id: randomUUID(),
      merchant_id: merchantId,
      declared_ip_address: declared.ip_address,
      declared_type: declared.type,
      declared_host_name: declared.host_name,
      declared_cookies_accepted: 1,
      declared_user_agent: declared.user_agent,
      observed_ip_address: '127.0.0.1',
      observed_user_agent: CHROME_UA,
      observed_origin: 'https://shop.example.com',
      parsed_type: 'Chrome',
      observed_type: 'Chrome',
      user_agent_readings: readings,
      signals_token_hash: 'a'.repeat(64),
      expires_at: new Date(now.getTime() + 30 * 60_000).toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    }),
  ],
});

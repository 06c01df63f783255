import { randomUUID } from 'node:crypto';
import { CHROME_UA, cardFields } from '../../test/helpers/charges.js';
import { basic, insert, startWriteServer } from '../lib/write-server.js';

// Our POST /v1/tokens (public key, CORS, card checks, keyed hash, one INSERT) against the same INSERT through
// a prepared statement, and a bare route answering the same JSON.
await startWriteServer({
  route: '/v1/tokens',
  headers: (merchant) => ({
    authorization: basic(merchant.publicKey),
    'content-type': 'application/json',
    origin: 'https://shop.example.com',
    'user-agent': CHROME_UA,
  }),
  request: async () => ({ path: '/v1/tokens', body: JSON.stringify({ card: cardFields() }) }),
  referenceWrites: ({ merchantId, answer, now }) => {
    const card = answer.data.card as { brand: string; last4: string; exp_month: number; exp_year: number };
    return [
      insert('card_tokens', {
        id: randomUUID(),
        merchant_id: merchantId,
        brand: card.brand,
        bin: '411111',
        last4: card.last4,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        holder_name: 'BENCH HOLDER',
        card_hash: 'b'.repeat(64),
        expires_at: new Date(now.getTime() + 15 * 60_000).toISOString(),
        created_at: now.toISOString(),
      }),
    ];
  },
});

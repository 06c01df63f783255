import { createHash, randomUUID } from 'node:crypto';
import { chargeSearchText } from '../../src/server/charges/service.js';
import { recordFraudSignals } from '../../src/server/fraud/service.js';
import { updateMerchantSettings } from '../../src/server/merchants/service.js';
import { checkCard } from '../../src/server/tokens/card.js';
import { createCardToken } from '../../src/server/tokens/service.js';
import { CHROME_UA, chargeBody, VALID_CPF } from '../../test/helpers/charges.js';
import { PROFILER_RUN_MS } from '../../test/helpers/signals.js';
import { buyerSignals, openBuyerSession, randomVisa } from './buyer.js';
import type { RequestSpec } from './load.js';
import type { Statement } from './reference-store.js';
import { basic, insert, startWriteServer, update, type WriteContext } from './write-server.js';

// Our POST /v1/charges (secret key, validation, idempotency hooks, one transaction: consume the card token,
// consume the fraud session, risk rules with their velocity queries and the card's velocity lock, acquirer,
// INSERT, outbox event, and the booking of what it captured) against the same writes in one transaction through
// prepared statements, and a bare route answering the same JSON. Each charge consumes one token and one session,
// so each request takes fresh ones from a pool, made through the service functions as POST /v1/tokens,
// POST /v1/fraud/sessions and its signals would make them.

export interface ChargeRequest {
  amount: number;
  installments: number;
  card_token: string;
  fraud_session_id: string;
  customer: { name: string; email: string; document: string };
  split?: {
    submerchant_id: string;
    type: 'percentage' | 'flat';
    amount: number;
    [option: string]: unknown;
  }[];
}

/** A charge's writes as the reference makes them, beyond the five every charge makes. */
export type MoreWrites = (input: {
  merchantId: string;
  chargeId: string;
  charge: ChargeRequest;
  at: string;
}) => Statement[];

let charges = 0;

/**
 * Starts the charge benchmark server: `body` adds to every charge's body (installments, split), `setup` runs
 * once first (and answers `body`), `moreWrites` are the reference's writes beyond token, session, velocity lock,
 * charge and event.
 */
export async function startChargeServer(
  options: {
    setup?: (context: WriteContext) => Promise<{ body: Record<string, unknown>; moreWrites: MoreWrites }>;
  } = {},
): Promise<void> {
  let extra: Record<string, unknown> = {};
  let moreWrites: MoreWrites = () => [];

  /** `count` charges, each with its own card token, clean fraud session (signals reported) and customer. */
  const pool = async ({ app, merchant }: WriteContext, count: number) => {
    const tokens: string[] = [];
    const sessions: string[] = [];
    const requests: RequestSpec[] = [];
    const batch = 500;
    for (let offset = 0; offset < count; offset += batch) {
      await app.store.db.transaction().execute(async (trx) => {
        for (let index = offset; index < Math.min(count, offset + batch); index++) {
          const now = new Date();
          const checked = checkCard(
            { number: randomVisa(), holder_name: 'Maria Silva', exp_month: 12, exp_year: 2030, cvv: '123' },
            app.config.cardHashKey,
            now,
          );
          if (!checked.ok) throw new Error(`bench card refused: ${JSON.stringify(checked.details)}`);
          const token = await createCardToken(trx, { merchantId: merchant.id, card: checked.card, now });
          const { session, signalsToken, challenge } = await openBuyerSession(trx, merchant.id, now);
          const reported = await recordFraudSignals(trx, {
            merchantId: merchant.id,
            sessionId: session.id,
            signalsToken,
            report: buyerSignals(challenge),
            observed: { ipAddress: '127.0.0.1', userAgent: CHROME_UA },
            // The report comes after the profiler ran, as a browser's does.
            now: new Date(now.getTime() + PROFILER_RUN_MS),
          });
          if (!reported.ok) throw new Error(`bench signals refused: ${reported.reason}`);
          tokens.push(token.id);
          sessions.push(session.id);
          charges++;
          requests.push({
            path: '/v1/charges',
            body: JSON.stringify(
              chargeBody(token.id, session.id, {
                amount: 1990 + (charges % 1000),
                customer: {
                  name: `Cliente ${charges}`,
                  email: `cliente${charges}@example.com`,
                  document: VALID_CPF,
                },
                ...extra,
              }),
            ),
          });
        }
      });
    }
    return { requests, rows: { card_tokens: tokens, fraud_sessions: sessions } };
  };

  await startWriteServer({
    route: '/v1/charges',
    headers: (merchant) => ({ authorization: basic(merchant.secretKey), 'content-type': 'application/json' }),
    request: { pool },
    // Set as a real merchant's would be, so that the host rule runs.
    setup: async (context) => {
      const { app, merchant } = context;
      await updateMerchantSettings(
        app.store.db,
        merchant.id,
        { allowedHosts: ['shop.example.com'] },
        new Date(),
      );
      if (options.setup) ({ body: extra, moreWrites } = await options.setup(context));
    },
    accept: ({ data }) =>
      data.status === 'captured' && (data.fraud_analysis as { status: string }).status === 'approved',
    referenceWrites: ({ merchantId, answer, body, now }) => {
      const charge = body as unknown as ChargeRequest;
      const presented = answer.data as {
        card: { brand: string; last4: string; exp_month: number; exp_year: number };
      };
      const id = randomUUID();
      const at = now.toISOString();
      // The card's keyed hash, which ours reads back from the token row: any 64 hex digits of this card.
      const cardHash = createHash('sha256').update(charge.card_token).digest('hex');
      const open = { text: 'used_at is null and expires_at > ?', values: [at] };
      return [
        update(
          'card_tokens',
          { used_at: at, charge_id: id },
          { id: charge.card_token, merchant_id: merchantId },
          open,
        ),
        update(
          'fraud_sessions',
          { consumed_at: at, charge_id: id, updated_at: at },
          { id: charge.fraud_session_id, merchant_id: merchantId },
          { text: 'consumed_at is null and expires_at > ?', values: [at] },
        ),
        {
          text:
            'insert into card_velocity_locks (merchant_id, card_hash, last_charge_at) values (?, ?, ?) ' +
            'on conflict (merchant_id, card_hash) do update set last_charge_at = excluded.last_charge_at',
          values: [merchantId, cardHash, at],
        },
        insert('charges', {
          id,
          merchant_id: merchantId,
          amount: charge.amount,
          payment_method: 'credit_card',
          installments: charge.installments,
          status: 'captured',
          failure_code: null,
          failure_message: null,
          customer_name: charge.customer.name,
          customer_email: charge.customer.email,
          customer_document: charge.customer.document,
          customer_document_type: 'cpf',
          card_token_id: charge.card_token,
          card_brand: presented.card.brand,
          card_bin: '411111',
          card_last4: presented.card.last4,
          card_exp_month: presented.card.exp_month,
          card_exp_year: presented.card.exp_year,
          card_holder_name: 'Maria Silva',
          card_hash: cardHash,
          fraud_session_id: charge.fraud_session_id,
          submerchant_id: null,
          visitor_id: 'v'.repeat(32),
          fraud_status: 'approved',
          fraud_score: 0,
          fraud_reasons: '[]',
          search_text: chargeSearchText(id, charge.customer),
          split: charge.split ? JSON.stringify(charge.split) : null,
          refunded_at: null,
          created_at: at,
          updated_at: at,
        }),
        insert('events', {
          id: randomUUID(),
          merchant_id: merchantId,
          type: 'charge.captured',
          data: JSON.stringify({ ...answer.data, id }),
          created_at: at,
        }),
        ...moreWrites({ merchantId, chargeId: id, charge, at }),
      ];
    },
  });
}

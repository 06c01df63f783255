import { randomUUID } from 'node:crypto';
import { getPricing, priceFor } from '../../src/server/pricing/service.js';
import { addDays, nextBusinessDay, saoPauloDate } from '../../src/server/receivables/calendar.js';
import { allocate } from '../../src/server/split/allocate.js';
import { apportion, installmentMatrix, splitEvenly } from '../../src/server/split/apportion.js';
import { splitRulesOf } from '../../src/server/split/schemas.js';
import { marketplace } from '../../test/helpers/money.js';
import { startChargeServer } from '../lib/charge-server.js';
import { insertRows } from '../lib/write-server.js';

// POST /v1/charges in 12 installments split three ways (the merchant, a seller's 30 %, another's R$ 5,00 paying
// the fee): besides the charge's own writes, its booking: 36 receivables, one ledger transaction of 5 postings,
// 3 wallets. The reference makes the same inserts and wallet updates by hand, in the charge's transaction: the
// amounts by the same arithmetic (src/server/split/), the due dates and the pricing read once at the start, and
// the postings' balances not read back (it writes the wallets' versions it does not know as 0).

const INSTALLMENTS = 12;

await startChargeServer({
  setup: async ({ app, merchant }) => {
    const sellers = await marketplace(app, merchant, 2);
    const split = [
      { submerchant_id: sellers[0]!, type: 'percentage' as const, amount: 3000 },
      { submerchant_id: sellers[1]!, type: 'flat' as const, amount: 500, charge_processing_fee: true },
    ];
    const rules = splitRulesOf(split)!;
    const owners = [
      { type: 'merchant' as const, id: merchant.id },
      ...sellers.map((id) => ({ type: 'submerchant' as const, id })),
    ];
    const now = new Date();
    const timestamp = now.toISOString();
    const wallets = owners.map((owner) => ({
      id: randomUUID(),
      merchant_id: merchant.id,
      owner_type: owner.type,
      owner_id: owner.id,
      created_at: timestamp,
      updated_at: timestamp,
    }));
    await app.store.db.insertInto('wallets').values(wallets).execute();
    const walletOf = new Map(wallets.map((wallet) => [wallet.owner_id, wallet.id]));
    const pricing = await getPricing(app.store.db, merchant.id);
    const { delayDays } = priceFor(pricing, { method: 'credit_card', amount: 1, installments: INSTALLMENTS });
    const dueDates = Array.from({ length: INSTALLMENTS }, (_, k) =>
      nextBusinessDay(addDays(saoPauloDate(now), delayDays * (k + 1))),
    );
    return {
      body: { installments: INSTALLMENTS, split },
      moreWrites: ({ merchantId, chargeId, charge, at }) => {
        const { fee } = priceFor(pricing, {
          method: 'credit_card',
          amount: charge.amount,
          installments: INSTALLMENTS,
        });
        const shares = allocate({ merchantId, amount: charge.amount, fee }, rules);
        const transactionId = randomUUID();
        const matrix = installmentMatrix(
          shares.map((share) => share.gross),
          splitEvenly(charge.amount, INSTALLMENTS),
        );
        const posting = (sequence: number, account: string, amount: number, walletId: string | null) => ({
          id: randomUUID(),
          transaction_id: transactionId,
          merchant_id: merchantId,
          wallet_id: walletId,
          account,
          amount,
          balance_after: walletId ? 0 : null,
          wallet_version: walletId ? 0 : null,
          sequence,
          source_type: 'charge',
          source_id: chargeId,
          created_at: at,
        });
        return [
          ...shares.map((share) => ({
            text:
              'update wallets set waiting_funds = waiting_funds + ?, version = version + 1, updated_at = ? ' +
              'where merchant_id = ? and owner_type = ? and owner_id = ?',
            values: [share.gross - share.fee, at, merchantId, share.recipient.type, share.recipient.id],
          })),
          insertRows('ledger_transactions', [
            {
              id: transactionId,
              merchant_id: merchantId,
              kind: 'charge_captured',
              source_type: 'charge',
              source_id: chargeId,
              created_at: at,
            },
          ]),
          insertRows('ledger_postings', [
            posting(0, 'acquirer_settlement', -charge.amount, null),
            posting(1, 'platform_fees', fee, null),
            ...shares.map((share, index) =>
              posting(2 + index, 'waiting_funds', share.gross - share.fee, walletOf.get(share.recipient.id)!),
            ),
          ]),
          insertRows(
            'receivables',
            shares.flatMap((share, i) => {
              const grosses = matrix[i]!;
              const fees = apportion(share.fee, grosses);
              return grosses.map((amount, k) => ({
                id: randomUUID(),
                merchant_id: merchantId,
                charge_id: chargeId,
                wallet_id: walletOf.get(share.recipient.id)!,
                recipient_type: share.recipient.type,
                recipient_id: share.recipient.id,
                installment: k + 1,
                installments: INSTALLMENTS,
                amount,
                fee: fees[k]!,
                net_amount: amount - fees[k]!,
                status: 'waiting_funds',
                type: 'credit',
                payment_date: dueDates[k]!,
                original_payment_date: dueDates[k]!,
                anticipation_id: null,
                paid_at: null,
                created_at: at,
              }));
            }),
          ),
        ];
      },
    };
  },
});

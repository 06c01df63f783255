import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { approvedCard, buyer, quickCharge } from '../../helpers/charges.js';
import { marketplace, receivablesOf, walletOf } from '../../helpers/money.js';

const CHARGES = 8;

// Charges of one merchant book into the same wallets at the same time: each wallet's balance is the sum of what
// every charge put there, its version counts them, no two charges deadlock on the wallets (half the charges name
// the sellers in the other order), and the ledger verifies.
describe.each(DIALECTS)('%s: split charges booked at the same time', { timeout: 120_000 }, (dialect) => {
  it('leave every wallet with the sum of its receivables and one version per charge', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const sellers = await marketplace(app, merchant, 2);
    const shares = sellers.map((seller, index) => ({
      submerchant_id: seller,
      type: 'percentage',
      amount: 2000 + 1000 * index,
      charge_processing_fee: index === 1,
    }));
    // The wallets do not exist yet: the first charges create them, concurrently.
    const responses = await Promise.all(
      Array.from({ length: CHARGES }, (_, n) =>
        quickCharge(app, merchant, {
          session: false,
          card: { number: approvedCard(500 + n) },
          body: {
            amount: 10_000 + 37 * n,
            installments: 1 + (n % 12),
            customer: buyer(500 + n),
            split: n % 2 === 0 ? shares : [...shares].reverse(),
          },
        }),
      ),
    );
    const charges = responses.map(({ response }) => {
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.status).toBe('captured');
      return response.json().data.id as string;
    });

    const net = new Map<string, number>();
    for (const charge of charges) {
      for (const receivable of await receivablesOf(app, merchant, charge)) {
        const owner = receivable.recipient.id as string;
        net.set(owner, (net.get(owner) ?? 0) + receivable.net_amount);
      }
    }
    for (const owner of [merchant.id, ...sellers]) {
      const wallet = await walletOf(app, merchant, owner);
      expect(wallet.waiting_funds).toBe(net.get(owner));
      expect(wallet.available).toBe(0);
      expect(wallet.version).toBe(CHARGES);
      const entries = await app.inject({
        method: 'GET',
        url: `/v1/wallets/${wallet.id}/entries?limit=100`,
        headers: merchant.secret,
      });
      // Newest first: versions CHARGES down to 1, each balance the one before it plus the entry.
      const listed = entries.json().data as {
        wallet_version: number;
        amount: number;
        balance_after: number;
      }[];
      expect(listed.map((entry) => entry.wallet_version)).toEqual(
        Array.from({ length: CHARGES }, (_, index) => CHARGES - index),
      );
      listed.reduceRight((before, entry) => {
        expect(entry.balance_after).toBe(before + entry.amount);
        return entry.balance_after;
      }, 0);
    }
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});

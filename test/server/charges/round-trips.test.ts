import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAppWithMerchant } from '../../helpers/app.js';
import {
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
  postCharge,
} from '../../helpers/charges.js';
import { recordStatements } from '../../helpers/statements.js';

// Issue 14: every round trip to PostgreSQL costs a charge a socket write and a wake-up of another process, the
// dearest thing on a loaded machine (bench/README.md). A charge with a fraud session makes four, and its
// booking on the ledger two more.
describe('what a charge sends PostgreSQL (issue 14)', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('charges with a session in four round trips (the charge’s three prepared) and books it in two more', async () => {
    const { app, merchant } = await startAppWithMerchant('postgres');
    await liftRateLimits(app, merchant);
    // The first charge verifies the key and claims the rate-limit points: the steady state follows.
    const first = await postCharge(
      app,
      merchant,
      chargeBody(await createToken(app, merchant), await createFraudSession(app, merchant)),
    );
    expect(first.statusCode).toBe(201);
    const body = chargeBody(await createToken(app, merchant), await createFraudSession(app, merchant));
    const sent = recordStatements();
    const charged = await postCharge(app, merchant, body);
    expect(charged.statusCode).toBe(201);
    expect(charged.json().data.fraud_analysis.status).toBe('approved');
    expect(sent.map((statement) => statement.text.split(/\s/)[0]!.toLowerCase())).toEqual([
      'begin',
      'select', // the merchant's pricing
      'with', // the token, the session and the card's lock
      'with', // the risk reads (the fraud labels of the card, buyer and device too), and the device graph's entry
      'with', // the charge, its event and its deliveries
      // Its booking (receivables/book.ts): the merchant's wallet, the ledger transaction, its postings and the
      // receivables in one statement, the last before the commit (the wallet's row lock is held only from there).
      'with',
      'commit',
    ]);
    // The merchant's pricing is read before the card is charged.
    expect(sent[1]?.text).toMatch(/merchant_pricing/);
    expect(sent[2]?.text).toMatch(/update "card_tokens".*update "fraud_sessions".*card_velocity_locks/s);
    expect(sent[3]?.text).toMatch(/insert into "device_graph"/);
    expect(sent[3]?.text).toMatch(/from "fraud_labels"/);
    // The booking's one statement upserts the wallets first: their rows are locked from there to the commit.
    expect(sent[5]?.text).toMatch(
      /^with "wallets_after" as \(insert into "wallets".*insert into "ledger_postings".*insert into "receivables"/s,
    );
    for (const statement of [sent[2], sent[3], sent[4]]) expect(statement?.name).toEqual(expect.any(String));
  });
});

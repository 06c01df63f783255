import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { CARDS, chargeBody, createFraudSession, createToken, postCharge } from '../../helpers/charges.js';

describe.each(DIALECTS)('card velocity under parallel charges on %s (issue 12 item 15)', (dialect) => {
  it('20 parallel charges of one card: every one past the limit is flagged CARD_VELOCITY', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const card = { number: CARDS.declined };
    const bodies = [];
    for (let i = 0; i < 20; i++) {
      bodies.push(
        chargeBody(await createToken(app, merchant, card), await createFraudSession(app, merchant)),
      );
    }
    const responses = await Promise.all(bodies.map((body) => postCharge(app, merchant, body)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(201));
    const flagged = responses.filter((response) =>
      response.json().data.fraud_analysis.reasons.includes('CARD_VELOCITY'),
    );
    // The first `maxCharges` charges find fewer earlier ones; each later one finds at least that many.
    expect(flagged).toHaveLength(20 - DEFAULT_POLICY.velocity.card.maxCharges);
  });
});

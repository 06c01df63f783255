import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { chargeBody, createToken, postCharge } from '../../helpers/charges.js';
import { capturedCharge, marketplace, REFUSED_SPLITS, type SplitParties } from '../../helpers/money.js';
import { client, seedSubmerchant } from '../../helpers/submerchants.js';

describe.each(DIALECTS)('%s: a charge with a split', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  let pending: string;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    sellers = await marketplace(app, merchant, 2);
    pending = (await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 0 })).id;
  });

  const refused = async (split: unknown[], amount = 10_000) => {
    const tokenId = await createToken(app, merchant);
    const response = await postCharge(app, merchant, chargeBody(tokenId, null, { amount, split }));
    const counts = await app.store.db
      .selectFrom('charges')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('card_token_id', '=', tokenId)
      .executeTakeFirstOrThrow();
    // Nothing created: no charge, and the token is still usable.
    expect(Number(counts.n)).toBe(0);
    const token = await app.store.db
      .selectFrom('card_tokens')
      .select('used_at')
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow();
    expect(token.used_at).toBeNull();
    return { status: response.statusCode, code: response.json().error?.code };
  };

  it.each([
    ...REFUSED_SPLITS,
    [
      'a percentage worth less than a centavo',
      ({ sellers }: SplitParties) => [{ submerchant_id: sellers[0], type: 'percentage', amount: 1 }],
      'SPLIT_SHARE_NOT_POSITIVE',
    ] as const,
  ])('%s → 422 %s, nothing created', async (_name, split, code) => {
    expect(await refused(split({ sellers, inactive: pending }), 9_999)).toEqual({ status: 422, code });
  });

  it('another merchant’s active submerchant is not found', async () => {
    const other = await createTestMerchant(app, { name: 'Other marketplace' });
    const [theirs] = await marketplace(app, other, 1);
    expect(await refused([{ submerchant_id: theirs, type: 'flat', amount: 100 }])).toEqual({
      status: 422,
      code: 'SPLIT_SUBMERCHANT_NOT_FOUND',
    });
  });

  it('a seller taking 100 % and paying the fee is fine; the list shows the split', async () => {
    const charge = await capturedCharge(app, merchant, {
      amount: 10_000,
      split: [
        {
          submerchant_id: sellers[1],
          type: 'percentage',
          amount: 10_000,
          charge_processing_fee: true,
          liable: false,
        },
      ],
    });
    const list = await client(app, merchant.secret).get('/v1/charges?limit=5');
    const listed = list.body.data.find((c: { id: string }) => c.id === charge.id);
    expect(listed.split).toEqual([
      {
        submerchant_id: sellers[1],
        type: 'percentage',
        amount: 10_000,
        liable: false,
        charge_processing_fee: true,
      },
    ]);
  });

  it('a schema error is a 400 (a split entry with an unknown field)', async () => {
    const tokenId = await createToken(app, merchant);
    const response = await postCharge(
      app,
      merchant,
      chargeBody(tokenId, null, {
        split: [{ submerchant_id: sellers[0], type: 'flat', amount: 1, extra: 1 }],
      }),
    );
    expect(response.statusCode).toBe(400);
  });
});

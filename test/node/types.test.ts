// Checked by `tsc -b` (test/tsconfig.json): a wrong field, a wrong type or a missing field does not compile, and
// answers have the API's types. At run time only the shapes' existence is checked; the proof is the compilation.
import { describe, expectTypeOf, test } from 'vitest';
import type {
  Charge,
  ChargeCreateParams,
  ErrorCode,
  ListPage,
  ReasonCode,
  Vigia,
  VigiaApiError,
  WebhookEndpointWithSecret,
} from '../../src/node/src/index.js';

declare const vigia: Vigia;

const valid = {
  amount: 1990,
  payment_method: 'credit_card',
  card_token: 'tok',
  customer: { name: 'Maria', email: 'maria@example.com', document: '12345678909' },
} satisfies ChargeCreateParams;

describe('@vigia/node types', () => {
  test('request bodies refuse unknown, mistyped and missing fields', () => {
    const compileOnly = () => {
      void vigia.charges.create(valid);
      // @ts-expect-error `amout` is not a field of a charge.
      void vigia.charges.create({ ...valid, amout: 1990 });
      // @ts-expect-error amount is an integer of minor units, not a string.
      void vigia.charges.create({ ...valid, amount: '19.90' });
      const { amount: _amount, ...withoutAmount } = valid;
      // @ts-expect-error amount is required.
      void vigia.charges.create(withoutAmount);
      // @ts-expect-error status filters take the charge's statuses only.
      void vigia.charges.list({ status: 'pending' });
      // @ts-expect-error an endpoint's status is active or paused.
      void vigia.webhookEndpoints.update('id', { status: 'disabled' });
    };
    expectTypeOf(compileOnly).toBeFunction();
  });

  test('answers carry the API types', () => {
    expectTypeOf<ReturnType<Vigia['charges']['create']>>().resolves.toEqualTypeOf<Charge>();
    expectTypeOf<Charge['status']>().toEqualTypeOf<'captured' | 'failed' | 'refunded'>();
    expectTypeOf<Charge['fraud_analysis']['reasons']>().toEqualTypeOf<ReasonCode[]>();
    expectTypeOf<'AUTOMATION_DETECTED'>().toMatchTypeOf<ReasonCode>();
    expectTypeOf<WebhookEndpointWithSecret['secret']>().toBeString();
    expectTypeOf<Awaited<ReturnType<Vigia['charges']['list']>>>().toEqualTypeOf<ListPage<Charge>>();
    expectTypeOf<ReturnType<Vigia['charges']['list']>>().toMatchTypeOf<AsyncIterable<Charge>>();
  });

  test("an error's code is typed from the service's error catalogues, and still takes codes added later", () => {
    expectTypeOf<VigiaApiError['code']>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<'FRAUD_SESSION_EXPIRED'>().toMatchTypeOf<ErrorCode>();
    // The catalogue's codes are a union of literals (an editor completes them), not a bare string.
    expectTypeOf<Extract<ErrorCode, 'TOKEN_EXPIRED' | 'URL_NOT_ALLOWED'>>().toEqualTypeOf<
      'TOKEN_EXPIRED' | 'URL_NOT_ALLOWED'
    >();
    expectTypeOf<'A_CODE_OF_A_NEWER_SERVICE'>().toMatchTypeOf<ErrorCode>();
  });
});

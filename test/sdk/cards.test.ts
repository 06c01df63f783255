import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardBrand, cvvLength, luhnValid, Sdk, SdkError, validateCard } from '../../src/sdk/src/index.js';
import { apiError, BASE, CONFIG, fakeFetch, ok, PUBLIC_KEY } from './helpers.js';

/** Completes `body` with its Luhn check digit. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable');
}
const card = (prefix: string, length = 16) => withCheckDigit(prefix.padEnd(length - 1, '0'));

describe('luhnValid', () => {
  it.each([
    '4111111111111111',
    '5555555555554444',
    '378282246310005',
    '4012888888881881',
    '6011111111111117',
  ])('accepts %s', (number) => {
    expect(luhnValid(number)).toBe(true);
  });

  it('ignores the spaces and dashes buyers type', () => {
    expect(luhnValid('4111 1111 1111 1111')).toBe(true);
    expect(luhnValid('4111-1111-1111-1111')).toBe(true);
  });

  it.each([
    '4111111111111112',
    '4111a11111111111',
    '41111111111',
    '41111111111111111111',
    '',
    '0000 0000 00x0',
  ])('rejects %j', (number) => {
    expect(luhnValid(number)).toBe(false);
  });

  it('accepts every number completed with its check digit, and no single-digit change of it', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 18 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const valid = withCheckDigit(body);
          expect(luhnValid(valid)).toBe(true);
          const i = position % valid.length;
          const changed = valid.slice(0, i) + ((Number(valid[i]) + delta) % 10) + valid.slice(i + 1);
          expect(luhnValid(changed)).toBe(false);
        },
      ),
    );
  });
});

describe('cardBrand', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['30569309025904', 'diners'],
    ['36227206271667', 'diners'],
    ['6362970000457013', 'elo'],
    ['5041750000000000', 'elo'],
    ['6500310000000000', 'elo'],
    ['6550580000000000', 'elo'],
    // Elo BINs inside Visa's block are Elo.
    ['4011780000000000', 'elo'],
    ['4389350000000000', 'elo'],
    ['6062825624254001', 'hipercard'],
    // Hipercard's 3841 BINs inside Diners' 38 block are Hipercard.
    ['3841001111222233', 'hipercard'],
    ['3841010000000000', 'diners'],
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });

  it.each([
    ['6011111111111117', 'Discover'],
    ['3530111333300000', 'JCB'],
    ['6550200000000000', 'a gap between Elo ranges'],
    ['9999999999999999', 'no brand'],
  ])('%s (%s) is not a brand we accept', (number) => {
    expect(cardBrand(number)).toBeNull();
  });

  it('names the brand from the first digits once only one brand can match', () => {
    expect(cardBrand('')).toBeNull();
    expect(cardBrand('4')).toBeNull(); // Visa or Elo
    expect(cardBrand('40')).toBeNull(); // 401178 is Elo
    expect(cardBrand('41')).toBe('visa');
    expect(cardBrand('4111 11')).toBe('visa');
    expect(cardBrand('5')).toBeNull(); // Mastercard or Elo
    expect(cardBrand('51')).toBe('mastercard');
    expect(cardBrand('37')).toBe('amex');
    expect(cardBrand('3')).toBeNull();
    expect(cardBrand('6362')).toBe('elo');
    expect(cardBrand('abc')).toBeNull();
  });
});

describe('cvvLength', () => {
  it('is 4 for American Express and 3 for the others', () => {
    expect(cvvLength('amex')).toBe(4);
    for (const brand of ['visa', 'mastercard', 'elo', 'hipercard', 'diners'] as const)
      expect(cvvLength(brand)).toBe(3);
  });
});

describe('validateCard', () => {
  const now = new Date('2026-05-15T12:00:00Z');
  const valid = {
    number: '4111 1111 1111 1111',
    holder_name: 'Maria da Silva',
    exp_month: 5,
    exp_year: 2026,
    cvv: '123',
  };
  const fields = (input: Record<string, unknown>) =>
    validateCard(input, now).map(({ field, code }) => `${field}:${code}`);

  it('accepts a valid card, also with numeric strings for the expiry', () => {
    expect(validateCard(valid, now)).toEqual([]);
    expect(validateCard({ ...valid, exp_month: '05', exp_year: '2030' }, now)).toEqual([]);
    expect(validateCard({ ...valid, number: card('37', 15), cvv: '1234' }, now)).toEqual([]);
    expect(validateCard({ ...valid, number: card('636368') }, now)).toEqual([]);
    expect(validateCard({ ...valid, holder_name: 'José Ñúñez-O’Brien' }, now)).toEqual([]);
  });

  it('requires every field, with one sentence per field', () => {
    const errors = validateCard({}, now);
    expect(errors.map((e) => e.field).sort()).toEqual([
      'cvv',
      'exp_month',
      'exp_year',
      'holder_name',
      'number',
    ]);
    expect(errors.every((e) => e.code === 'REQUIRED' && /^Enter the .+\.$/.test(e.message))).toBe(true);
    expect(fields({ ...valid, holder_name: '   ' })).toEqual(['holder_name:REQUIRED']);
  });

  it('checks the number: digits, brand, length for the brand, Luhn', () => {
    expect(fields({ ...valid, number: '4111x111111111111' })).toEqual(['number:INVALID_NUMBER']);
    expect(fields({ ...valid, number: '6011111111111117' })).toEqual(['number:UNSUPPORTED_BRAND']);
    expect(fields({ ...valid, number: card('41', 15) })).toEqual(['number:INVALID_LENGTH']);
    expect(fields({ ...valid, number: card('37', 16), cvv: '1234' })).toEqual(['number:INVALID_LENGTH']);
    expect(fields({ ...valid, number: '4111111111111112' })).toEqual(['number:INVALID_NUMBER']);
    expect(fields({ ...valid, number: 4111111111111111 })).toEqual(['number:INVALID_NUMBER']);
  });

  it('checks the holder name', () => {
    expect(fields({ ...valid, holder_name: 'M' })).toEqual(['holder_name:INVALID_HOLDER_NAME']);
    expect(fields({ ...valid, holder_name: '4111111111111111' })).toEqual([
      'holder_name:INVALID_HOLDER_NAME',
    ]);
    expect(fields({ ...valid, holder_name: 'a'.repeat(101) })).toEqual(['holder_name:INVALID_HOLDER_NAME']);
  });

  it('accepts the current month and refuses the previous one (UTC)', () => {
    expect(fields({ ...valid, exp_month: 5, exp_year: 2026 })).toEqual([]);
    expect(fields({ ...valid, exp_month: 4, exp_year: 2026 })).toEqual(['exp_month:EXPIRED']);
    expect(fields({ ...valid, exp_month: 12, exp_year: 2025 })).toEqual(['exp_year:EXPIRED']);
    expect(fields({ ...valid, exp_month: 1, exp_year: 2027 })).toEqual([]);
  });

  it('refuses impossible months and years', () => {
    expect(fields({ ...valid, exp_month: 0 })).toEqual(['exp_month:INVALID_MONTH']);
    expect(fields({ ...valid, exp_month: 13 })).toEqual(['exp_month:INVALID_MONTH']);
    expect(fields({ ...valid, exp_month: 5.5 })).toEqual(['exp_month:INVALID_MONTH']);
    expect(fields({ ...valid, exp_year: 27 })).toEqual(['exp_year:INVALID_YEAR']);
    expect(fields({ ...valid, exp_year: 2046 })).toEqual([]);
    expect(fields({ ...valid, exp_year: 2047 })).toEqual(['exp_year:INVALID_YEAR']);
  });

  it('checks the CVV length for the brand', () => {
    expect(fields({ ...valid, cvv: '1234' })).toEqual(['cvv:INVALID_CVV']);
    expect(fields({ ...valid, cvv: '12' })).toEqual(['cvv:INVALID_CVV']);
    expect(fields({ ...valid, cvv: '12a' })).toEqual(['cvv:INVALID_CVV']);
    expect(fields({ ...valid, cvv: 123 })).toEqual(['cvv:INVALID_CVV']);
    expect(fields({ ...valid, number: card('37', 15), cvv: '123' })).toEqual(['cvv:INVALID_CVV']);
    expect(validateCard({ ...valid, cvv: '1' }, now)[0]!.message).toBe(
      'The security code must have 3 digits.',
    );
  });
});

describe('sdk.cards.tokenize()', () => {
  const input = {
    number: '4111 1111 1111 1111',
    holder_name: '  Maria da Silva ',
    exp_month: '07',
    exp_year: 2031,
    cvv: '123',
  };
  const token = {
    id: 'a4a1c7e0-3b0e-4d8e-9e0f-5c1d2b3a4f50',
    card: { brand: 'visa', last4: '1111', exp_month: 7, exp_year: 2031 },
    expires_at: '2031-01-01T00:15:00.000Z',
  };

  function setup() {
    const fake = fakeFetch({
      [`GET ${BASE}/v1/sdk/config`]: () => ok(CONFIG),
      [`POST ${BASE}/v1/tokens`]: () => ok(token, 201),
    });
    return { sdk: new Sdk(PUBLIC_KEY, { baseUrl: BASE, fetch: fake.fetch }), ...fake };
  }

  it('posts the normalised card with the public key and resolves the token', async () => {
    const { sdk, callsTo } = setup();
    await sdk.init();
    await expect(sdk.cards.tokenize(input, { idempotencyKey: 'order-77' })).resolves.toEqual(token);
    const [call] = callsTo('POST', '/v1/tokens');
    expect(call!.body).toEqual({
      card: {
        number: '4111111111111111',
        holder_name: 'Maria da Silva',
        exp_month: 7,
        exp_year: 2031,
        cvv: '123',
      },
    });
    expect(call!.headers.authorization).toBe(`Basic ${btoa(`${PUBLIC_KEY}:`)}`);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers['idempotency-key']).toBe('order-77');
  });

  it('rejects an invalid card with VALIDATION_ERROR and field details, sending nothing', async () => {
    const { sdk, callsTo } = setup();
    await sdk.init();
    const error = await sdk.cards.tokenize({ ...input, number: '4111111111111112', cvv: '' }).catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.map((d: { field: string }) => d.field).sort()).toEqual(['cvv', 'number']);
    expect(callsTo('POST', '/v1/tokens')).toHaveLength(0);
  });

  it('rejects with NOT_INITIALISED before init()', async () => {
    const { sdk, calls } = setup();
    await expect(sdk.cards.tokenize(input)).rejects.toMatchObject({ code: 'NOT_INITIALISED' });
    expect(calls).toHaveLength(0);
  });

  it("passes the service's refusal on as a typed error", async () => {
    const fake = fakeFetch({
      [`GET ${BASE}/v1/sdk/config`]: () => ok(CONFIG),
      [`POST ${BASE}/v1/tokens`]: () => apiError(422, 'CARD_EXPIRED', 'The card has expired.'),
    });
    const sdk = new Sdk(PUBLIC_KEY, { baseUrl: BASE, fetch: fake.fetch });
    await sdk.init();
    await expect(sdk.cards.tokenize(input)).rejects.toMatchObject({ code: 'CARD_EXPIRED', status: 422 });
  });
});

import { parsePix } from 'pix-utils';
// pix-utils' own EMV reader, to read the fields its PIX object leaves out (the amount of a dynamic code).
import { parseEmv } from 'pix-utils/dist/main/emvHandler.js';
import { describe, expect, test } from 'vitest';
import { crc16, dynamicBrCode, emvText } from '../../../../src/server/charges/pix/br-code.js';

const code = (overrides: Partial<Parameters<typeof dynamicBrCode>[0]> = {}) =>
  dynamicBrCode({
    location: 'psp.vigia.test/pix/v2/cob/0123456789abcdef0123456789abcdef',
    amount: 1990,
    merchantName: 'Loja São João',
    merchantCity: 'São Paulo',
    ...overrides,
  });

describe('dynamic BR Code', () => {
  test('an independent parser reads it as a dynamic PIX with a valid CRC, its location, name and city', () => {
    const parsed = parsePix(code());
    expect(parsed).toMatchObject({
      type: 'DYNAMIC',
      url: 'psp.vigia.test/pix/v2/cob/0123456789abcdef0123456789abcdef',
      merchantName: 'LOJA SAO JOAO',
      merchantCity: 'SAO PAULO',
      transactionCurrency: '986',
      countryCode: 'BR',
    });
  });

  test.each([1, 1990, 100_000_000_000])('carries the amount %i centavos in field 54', (amount) => {
    const emv = parseEmv({ emvCode: code({ amount }) });
    if (!emv.isValid) throw new Error('not an EMV code');
    expect(emv.getTag(54)).toBe((amount / 100).toFixed(2));
    expect(emv.getTag(1)).toBe('12');
    expect(emv.getSubTag(5, 62)).toBe('***');
  });

  test('a changed character breaks the CRC (the parser refuses it)', () => {
    const valid = code();
    const tampered = valid.replace('1990', '1991').replace('19.90', '19.91');
    expect(parsePix(tampered)).toMatchObject({ error: true });
    expect(crc16('123456789')).toBe('29B1'); // CRC-16/CCITT-FALSE's check value
  });

  test('names and cities are ASCII, upper case, within 25 and 15 characters', () => {
    expect(emvText('Açaí & Cia. do Coração Valente Ltda', 25)).toBe('ACAI & CIA. DO CORACAO VA');
    expect(emvText('São José dos Campos', 15)).toBe('SAO JOSE DOS CA');
    const parsed = parsePix(code({ merchantName: '漢字' })) as { merchantName: string };
    expect(parsed.merchantName).toBe('VIGIA');
  });
});

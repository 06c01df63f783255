import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkTaxId,
  checkTaxIdOfKind,
  isValidCnpj,
  isValidCpf,
  taxIdError,
  withCheckDigits,
} from '../../../src/server/core/tax-id.js';

describe('CPF and CNPJ check digits', () => {
  it('accepts published valid numbers', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('11144477735')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11444777000161')).toBe(true);
    // Check digits of 0 (remainder 10 for CPF, remainder < 2 for CNPJ).
    expect(isValidCpf(withCheckDigits('100000001', 'cpf'))).toBe(true);
  });

  it('refuses a wrong check digit, naming that rule', () => {
    expect(checkTaxIdOfKind('52998224726', 'cpf')).toEqual({ valid: false, problem: 'CHECK_DIGITS' });
    expect(checkTaxIdOfKind('52998224715', 'cpf')).toEqual({ valid: false, problem: 'CHECK_DIGITS' });
    expect(checkTaxIdOfKind('11222333000182', 'cnpj')).toEqual({ valid: false, problem: 'CHECK_DIGITS' });
    expect(checkTaxIdOfKind('11222333000191', 'cnpj')).toEqual({ valid: false, problem: 'CHECK_DIGITS' });
    expect(taxIdError('tax_id', '11222333000182', 'cnpj')).toMatch(/not a valid CNPJ: its check digits/);
  });

  it('refuses numbers of one repeated digit even though their check digits compute', () => {
    for (let digit = 0; digit <= 9; digit++) {
      expect(checkTaxIdOfKind(String(digit).repeat(11), 'cpf')).toEqual({
        valid: false,
        problem: 'REPEATED_DIGITS',
      });
      expect(checkTaxIdOfKind(String(digit).repeat(14), 'cnpj')).toEqual({
        valid: false,
        problem: 'REPEATED_DIGITS',
      });
    }
    expect(taxIdError('document', '11111111111', 'either')).toMatch(
      /not a valid CPF: a number made of one repeated digit/,
    );
  });

  it('refuses formatting characters and wrong lengths with their own messages', () => {
    expect(checkTaxIdOfKind('529.982.247-25', 'cpf')).toEqual({ valid: false, problem: 'NOT_DIGITS' });
    expect(checkTaxIdOfKind('', 'cpf')).toEqual({ valid: false, problem: 'NOT_DIGITS' });
    expect(checkTaxIdOfKind('5299822472', 'cpf')).toEqual({ valid: false, problem: 'WRONG_LENGTH' });
    expect(checkTaxIdOfKind('52998224725', 'cnpj')).toEqual({ valid: false, problem: 'WRONG_LENGTH' });
    expect(checkTaxId('123456789012')).toEqual({ valid: false, problem: 'WRONG_LENGTH' });
    expect(taxIdError('tax_id', '11.222.333/0001-81', 'cnpj')).toMatch(/digits only/);
    expect(taxIdError('tax_id', '52998224725', 'cnpj')).toBe('tax_id must have 14 digits (CNPJ); it has 11.');
    expect(taxIdError('document', '123', 'either')).toMatch(/11 digits \(CPF\) or 14 digits \(CNPJ\)/);
  });

  it('tells CPF from CNPJ by length when either is accepted', () => {
    expect(checkTaxId('52998224725')).toEqual({ valid: true, kind: 'cpf' });
    expect(checkTaxId('11222333000181')).toEqual({ valid: true, kind: 'cnpj' });
    expect(taxIdError('customer.document', '11222333000181', 'either')).toBeNull();
  });

  it('completes any base into a valid number, and a changed check digit breaks it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cpf' as const, 'cnpj' as const),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (kind, digits, at, delta) => {
          const base = digits.slice(0, kind === 'cpf' ? 9 : 12).join('');
          fc.pre(!/^(\d)\1*$/.test(base));
          const full = withCheckDigits(base, kind);
          expect(checkTaxIdOfKind(full, kind).valid).toBe(true);
          // Only the check digits: CPF maps remainders 0 and 10 both to 0, so a few body changes go unseen.
          const position = full.length - 1 - (at % 2);
          const changed =
            full.slice(0, position) + ((Number(full[position]) + delta) % 10) + full.slice(position + 1);
          expect(checkTaxIdOfKind(changed, kind).valid).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * Brazilian tax ids: CPF (people, 11 digits) and CNPJ (companies, 14 digits), digits only, with their two
 * check digits (mod 11). Pure functions, shared by submerchant onboarding and charges (`customer.document`).
 *
 * The alphanumeric CNPJ announced by the Receita Federal is not accepted: the published interface says
 * "digits only".
 */

export type TaxIdKind = 'cpf' | 'cnpj';

/** Why a tax id was refused, in the order the checks run. */
export type TaxIdProblem = 'NOT_DIGITS' | 'WRONG_LENGTH' | 'REPEATED_DIGITS' | 'CHECK_DIGITS';

export type TaxIdCheck = { valid: true; kind: TaxIdKind } | { valid: false; problem: TaxIdProblem };

const LENGTH: Record<TaxIdKind, number> = { cpf: 11, cnpj: 14 };
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

const digitsOf = (value: string): number[] => [...value].map(Number);

function cpfCheckDigit(digits: number[]): number {
  // Weights run from digits.length + 1 down to 2.
  const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

function cnpjCheckDigit(digits: number[]): number {
  const weights = CNPJ_WEIGHTS.slice(CNPJ_WEIGHTS.length - digits.length);
  const rest = digits.reduce((total, digit, index) => total + digit * weights[index]!, 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Appends the two check digits to a 9-digit CPF base or a 12-digit CNPJ base (test data, examples). */
export function withCheckDigits(base: string, kind: TaxIdKind): string {
  if (!/^\d+$/.test(base) || base.length !== LENGTH[kind] - 2) {
    throw new RangeError(`a ${kind} base has ${LENGTH[kind] - 2} digits`);
  }
  const checkDigit = kind === 'cpf' ? cpfCheckDigit : cnpjCheckDigit;
  const digits = digitsOf(base);
  digits.push(checkDigit(digits));
  digits.push(checkDigit(digits));
  return digits.join('');
}

/** Checks a value as one kind of tax id. */
export function checkTaxIdOfKind(value: string, kind: TaxIdKind): TaxIdCheck {
  if (!/^\d*$/.test(value) || value.length === 0) return { valid: false, problem: 'NOT_DIGITS' };
  if (value.length !== LENGTH[kind]) return { valid: false, problem: 'WRONG_LENGTH' };
  // 000.000.000-00, 111.111.111-11, …: their check digits compute, but no such number is ever issued.
  if (/^(\d)\1*$/.test(value)) return { valid: false, problem: 'REPEATED_DIGITS' };
  const expected = withCheckDigits(value.slice(0, -2), kind);
  return expected === value ? { valid: true, kind } : { valid: false, problem: 'CHECK_DIGITS' };
}

/** Checks a value that may be either a CPF or a CNPJ; its length decides which. */
export function checkTaxId(value: string): TaxIdCheck {
  if (!/^\d*$/.test(value) || value.length === 0) return { valid: false, problem: 'NOT_DIGITS' };
  if (value.length === LENGTH.cpf) return checkTaxIdOfKind(value, 'cpf');
  if (value.length === LENGTH.cnpj) return checkTaxIdOfKind(value, 'cnpj');
  return { valid: false, problem: 'WRONG_LENGTH' };
}

export const isValidCpf = (value: string): boolean => checkTaxIdOfKind(value, 'cpf').valid;
export const isValidCnpj = (value: string): boolean => checkTaxIdOfKind(value, 'cnpj').valid;
export const isValidTaxId = (value: string): boolean => checkTaxId(value).valid;

const NAME: Record<TaxIdKind, string> = { cpf: 'CPF', cnpj: 'CNPJ' };

/**
 * A sentence saying which rule a value broke, for an API error detail; null when the value is valid.
 * `kind` is the kind the field needs, or 'either' for a field that takes both.
 */
export function taxIdError(field: string, value: string, kind: TaxIdKind | 'either'): string | null {
  const check = kind === 'either' ? checkTaxId(value) : checkTaxIdOfKind(value, kind);
  if (check.valid) return null;
  const what = kind === 'either' ? 'a CPF (11 digits) or a CNPJ (14 digits)' : `a ${NAME[kind]}`;
  switch (check.problem) {
    case 'NOT_DIGITS':
      return `${field} must contain digits only (no dots, dashes or slashes): ${what}.`;
    case 'WRONG_LENGTH':
      return kind === 'either'
        ? `${field} must have 11 digits (CPF) or 14 digits (CNPJ); it has ${value.length}.`
        : `${field} must have ${LENGTH[kind]} digits (${NAME[kind]}); it has ${value.length}.`;
    case 'REPEATED_DIGITS':
      return `${field} is not a valid ${kind === 'either' ? NAME[value.length === 11 ? 'cpf' : 'cnpj'] : NAME[kind]}: a number made of one repeated digit is never issued.`;
    case 'CHECK_DIGITS':
      return `${field} is not a valid ${kind === 'either' ? NAME[value.length === 11 ? 'cpf' : 'cnpj'] : NAME[kind]}: its check digits (the last two) do not match the rest of the number.`;
  }
}

import { isValidCnpj, isValidCpf, taxIdError } from '../core/tax-id.js';
import { type ErrorDetail, validationError } from '../errors.js';

/**
 * The formats of a bank account's fields, checked here rather than by schema patterns so that each refusal says
 * the rule (docs/decisions/bank-account-rules.md). Pure: the rules that need the store are in service.ts.
 */
export interface BankAccountInput {
  holder_name: string;
  holder_document: string;
  bank: string;
  branch: string;
  branch_digit?: string | null;
  account: string;
  account_digit: string;
  type: 'checking' | 'savings' | 'payment';
  pix_key?: string | null;
}

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+55[1-9]{2}\d{8,9}$/;
const RANDOM_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The kind of a PIX key (the central bank's five), or null when it is none of them. */
export function pixKeyKind(key: string): PixKeyKind | null {
  if (/^\d{11}$/.test(key)) return isValidCpf(key) ? 'cpf' : null;
  if (/^\d{14}$/.test(key)) return isValidCnpj(key) ? 'cnpj' : null;
  if (PHONE.test(key)) return 'phone';
  if (RANDOM_KEY.test(key)) return 'random';
  // The central bank caps e-mail keys at 77 characters.
  if (key.length <= 77 && EMAIL.test(key)) return 'email';
  return null;
}

/** How a PIX key is stored: e-mails and random keys lower-cased, as the directory holds them. */
export function normalPixKey(key: string): string {
  const kind = pixKeyKind(key);
  return kind === 'email' || kind === 'random' ? key.toLowerCase() : key;
}

const DIGITS = (min: number, max: number) => new RegExp(`^\\d{${min},${max}}$`);
const CHECK_DIGIT = /^[0-9X]$/i;

/** Every format problem of a creation body at once (400 VALIDATION_ERROR), or nothing. */
export function checkBankAccountFields(input: BankAccountInput): void {
  const details: ErrorDetail[] = [];
  const refuse = (field: string, message: string) => details.push({ field, message });
  const name = input.holder_name.trim();
  if (name.length < 2 || name.length > 100) {
    refuse('holder_name', 'holder_name must be the holder’s name as the bank has it, 2 to 100 characters.');
  }
  const document = taxIdError('holder_document', input.holder_document, 'either');
  if (document) refuse('holder_document', document);
  if (!DIGITS(3, 3).test(input.bank)) {
    refuse('bank', 'bank must be the 3-digit COMPE code of the bank (GET /v1/banks), e.g. "341".');
  }
  if (!DIGITS(1, 4).test(input.branch)) {
    refuse('branch', 'branch must be the branch (agência) number, 1 to 4 digits, without its check digit.');
  }
  if (input.branch_digit != null && !CHECK_DIGIT.test(input.branch_digit)) {
    refuse('branch_digit', 'branch_digit must be one digit or X; leave it out when the branch has none.');
  }
  if (!DIGITS(1, 12).test(input.account) || /^0+$/.test(input.account)) {
    refuse(
      'account',
      'account must be the account number, 1 to 12 digits (not all zeros), without its check digit.',
    );
  }
  if (!/^[0-9X]{1,2}$/i.test(input.account_digit)) {
    refuse(
      'account_digit',
      'account_digit must be the account’s check digit: 1 or 2 characters, digits or X.',
    );
  }
  if (input.pix_key != null && pixKeyKind(input.pix_key) === null) {
    refuse(
      'pix_key',
      'pix_key must be a PIX key: a CPF (11 digits) or CNPJ (14 digits), an e-mail, a phone as +55 with area ' +
        'code and number (e.g. +5511987654321), or a random key (UUID).',
    );
  }
  if (details.length) throw validationError('The request body is invalid: see error.details.', details);
}

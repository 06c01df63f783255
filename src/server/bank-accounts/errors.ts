import {
  businessRule,
  type ErrorCatalogue,
  type ErrorDetail,
  testModeOnly as generalTestModeOnly,
  invalidState,
} from '../errors.js';

/**
 * The bank accounts' own refusals (400 VALIDATION_ERROR, 404 NOT_FOUND and 409 INVALID_STATE are the generic
 * ones of errors.ts; their sentences are built here too, so every refusal of this resource reads alike).
 */
export const BANK_ACCOUNTS_ERRORS = {
  BANK_NOT_FOUND: {
    status: 422,
    meaning: 'No bank has the COMPE code given as `bank`.',
    action: 'Send the 3-digit COMPE code of a bank listed by GET /v1/banks.',
  },
  HOLDER_DOCUMENT_MISMATCH: {
    status: 422,
    meaning:
      "holder_document is not the owner's CPF/CNPJ: money is paid out only to its owner's own account.",
    action:
      "Send an account held by the owner: the submerchant's tax_id, or your own document (GET /v1/account).",
  },
  MERCHANT_DOCUMENT_MISSING: {
    status: 422,
    meaning: 'Your account has no CPF/CNPJ on record, so no holder can be checked against it.',
    action: 'Record it once with PATCH /v1/account { document }, or ask the platform operator to.',
  },
  PIX_KEY_BANK_NOT_PARTICIPANT: {
    status: 422,
    meaning: 'A PIX key was given for a bank that does not take part in PIX.',
    action: 'Leave pix_key out, or register an account at a bank whose pix_participant is true.',
  },
  BANK_ACCOUNT_DUPLICATE: {
    status: 422,
    meaning: 'The owner already has this account (same bank, branch, account and digit).',
    action: 'Use the existing one (GET its list), or delete it first.',
  },
  BANK_ACCOUNT_REJECTED: {
    status: 422,
    meaning: 'A rejected bank account cannot be the default one.',
    action: 'Register a corrected account, or choose a pending or verified one as default.',
  },
} as const satisfies ErrorCatalogue;

type Code = keyof typeof BANK_ACCOUNTS_ERRORS;

const refusal = (code: Code, message: string, details?: ErrorDetail[]) =>
  businessRule(code, `${message} ${BANK_ACCOUNTS_ERRORS[code].action}`, details);

export const bankNotFound = (bank: string) =>
  refusal('BANK_NOT_FOUND', `No bank has the COMPE code ${bank}.`, [
    { field: 'bank', message: 'bank is not the COMPE code of a known bank.' },
  ]);

export const holderDocumentMismatch = (owner: 'merchant' | 'submerchant') =>
  refusal(
    'HOLDER_DOCUMENT_MISMATCH',
    owner === 'submerchant'
      ? "holder_document is not the submerchant's tax_id: a submerchant is paid only into an account it holds."
      : 'holder_document is not your CPF/CNPJ on record: you are paid only into an account you hold.',
    [{ field: 'holder_document', message: "holder_document must be the owner's CPF/CNPJ." }],
  );

export const merchantDocumentMissing = () =>
  refusal('MERCHANT_DOCUMENT_MISSING', 'Your account has no CPF/CNPJ on record (document).');

export const pixKeyBankNotParticipant = (bank: string) =>
  refusal(
    'PIX_KEY_BANK_NOT_PARTICIPANT',
    `Bank ${bank} does not take part in PIX, so the account has no PIX key.`,
    [{ field: 'pix_key', message: "pix_key is not accepted for this account's bank." }],
  );

export const bankAccountDuplicate = () =>
  refusal('BANK_ACCOUNT_DUPLICATE', 'This owner already has this bank account.');

export const bankAccountRejected = () =>
  refusal('BANK_ACCOUNT_REJECTED', 'The bank account was rejected, so it cannot be the default one.');

/** The code every /v1/test/… route answers a live key with (its catalogue entry is onboarding's). */
export const testModeOnly = () =>
  generalTestModeOnly('in live mode the platform operator verifies bank accounts.');

export const notPendingVerification = (status: string) =>
  invalidState(
    `The bank account is ${status}: only an account pending verification is verified or rejected.`,
  );

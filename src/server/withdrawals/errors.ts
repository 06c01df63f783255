import { businessRule, type ErrorCatalogue, type ErrorDetail, invalidState } from '../errors.js';

/** The refusals of a withdrawal; each answers 422 and moves nothing. */
export const WITHDRAWALS_ERRORS = {
  WITHDRAWAL_BELOW_MINIMUM: {
    status: 422,
    meaning: 'The amount is below the smallest withdrawal your pricing allows (minimum_withdrawal).',
    action: 'Withdraw at least the minimum the message names.',
  },
  WITHDRAWAL_INSUFFICIENT_BALANCE: {
    status: 422,
    meaning: "The amount plus the withdrawal's fee is more than the wallet's available balance.",
    action: 'Withdraw at most available − fee (error.details names both), or wait for receivables to settle.',
  },
  WITHDRAWAL_BANK_ACCOUNT_NOT_OWNERS: {
    status: 422,
    meaning:
      "bank_account_id is not one of the owner's bank accounts (the submerchant's when submerchant_id is given, " +
      'yours otherwise), or the account was deleted.',
    action: "Send the id of one of the owner's accounts (GET its bank-accounts list).",
  },
  WITHDRAWAL_BANK_ACCOUNT_NOT_VERIFIED: {
    status: 422,
    meaning:
      'The bank account is pending verification or was rejected: money goes only to a verified account.',
    action: 'Wait for the verification, or withdraw to a verified account.',
  },
  WITHDRAWAL_PIX_UNAVAILABLE: {
    status: 422,
    meaning: "method is pix, but the account's bank does not take part in PIX.",
    action: 'Send method "ted", or leave method out (TED is then chosen for this bank).',
  },
  WITHDRAWAL_SUBMERCHANT_NOT_ACTIVE: {
    status: 422,
    meaning: 'The submerchant is not active: its money is held until it is.',
    action: "Finish the submerchant's onboarding (its status must be active), then withdraw.",
  },
  WITHDRAWAL_SUBMERCHANT_BLOCKED: {
    status: 422,
    meaning:
      "The platform operator has blocked the submerchant: its wallet's money is held until the block is lifted.",
    action: 'Ask the platform operator about the block; withdraw once it is lifted.',
  },
  WITHDRAWAL_ALREADY_PENDING: {
    status: 422,
    meaning: 'Another withdrawal of the same wallet is still pending.',
    action: 'Wait until it is processing (seconds), or cancel it, then withdraw again.',
  },
} as const satisfies ErrorCatalogue;

type Code = keyof typeof WITHDRAWALS_ERRORS;

const refusal = (code: Code, message: string, details?: ErrorDetail[]) =>
  businessRule(code, `${message} ${WITHDRAWALS_ERRORS[code].action}`, details);

export const belowMinimum = (minimum: number) =>
  refusal('WITHDRAWAL_BELOW_MINIMUM', `The smallest withdrawal is ${minimum} centavos.`, [
    { field: 'amount', message: `amount must be at least ${minimum}.` },
  ]);

export const insufficientBalance = (input: { amount: number; fee: number; available: number }) =>
  refusal(
    'WITHDRAWAL_INSUFFICIENT_BALANCE',
    `amount ${input.amount} plus fee ${input.fee} is more than the available ${input.available} centavos.`,
    [{ field: 'amount', message: `amount must be at most ${Math.max(0, input.available - input.fee)}.` }],
  );

export const bankAccountNotOwners = () =>
  refusal('WITHDRAWAL_BANK_ACCOUNT_NOT_OWNERS', 'No bank account of the owner has this id.', [
    { field: 'bank_account_id', message: "bank_account_id must be one of the owner's bank accounts." },
  ]);

export const bankAccountNotVerified = (status: string) =>
  refusal('WITHDRAWAL_BANK_ACCOUNT_NOT_VERIFIED', `The bank account is ${status}.`, [
    { field: 'bank_account_id', message: 'bank_account_id must be a verified account.' },
  ]);

export const pixUnavailable = (bank: string) =>
  refusal('WITHDRAWAL_PIX_UNAVAILABLE', `Bank ${bank} does not take part in PIX.`, [
    { field: 'method', message: 'method pix is not available for this account.' },
  ]);

export const submerchantNotActive = (status: string) =>
  refusal('WITHDRAWAL_SUBMERCHANT_NOT_ACTIVE', `The submerchant is ${status}.`, [
    { field: 'submerchant_id', message: 'submerchant_id must name an active submerchant.' },
  ]);

export const submerchantBlocked = () =>
  refusal('WITHDRAWAL_SUBMERCHANT_BLOCKED', 'The submerchant is blocked by the platform operator.', [
    { field: 'submerchant_id', message: 'submerchant_id names a blocked submerchant.' },
  ]);

export const alreadyPending = () =>
  refusal('WITHDRAWAL_ALREADY_PENDING', 'Another withdrawal of this wallet is still pending.');

export const notPending = (status: string) =>
  invalidState(`The withdrawal is ${status}: only a pending withdrawal can be canceled.`);

import { businessRule } from '../errors.js';

export const LEDGER_ERRORS = {
  INSUFFICIENT_BALANCE: {
    status: 422,
    meaning: 'The movement would take a wallet bucket (available, in transit, blocked) below zero.',
    action: 'Wait for receivables to settle, or move a smaller amount.',
  },
} as const;

/** A movement refused because it would overdraw a bucket; nothing was written (the transaction rolls back). */
export class Overdraft extends Error {
  constructor(readonly walletId: string) {
    super(`wallet ${walletId} would go below zero`);
  }
}

export const insufficientBalance = (message: string) => businessRule('INSUFFICIENT_BALANCE', message);

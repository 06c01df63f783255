import { createHash } from 'node:crypto';

/**
 * The bank seam: the institution that sends a withdrawal's money to its owner's bank account, by PIX or TED.
 * Like the card acquirer (charges/acquirer.ts) it is an async interface, injectable as
 * `buildApp(config, { bank })` and read as `app.bank`; the worker (withdrawals/process.ts) drives it.
 *
 * A transfer is submitted once per withdrawal (the withdrawal's id is the idempotency key: a retry after a crash
 * never sends the money twice), then checked until the bank tells its outcome; a transferred one is checked for a
 * return (the receiving bank sent the money back) for `returnWindowMs` after it was transferred.
 *
 * `simulatedBank` is the implementation for development and tests: it sends nothing anywhere and decides by the
 * destination's account number (TEST_BANK_ACCOUNTS, documented in docs/withdrawals.md), like the test cards.
 */
export interface BankTransfer {
  withdrawalId: string;
  method: 'pix' | 'ted';
  /** Centavos. */
  amount: number;
  destination: {
    /** COMPE and ISPB codes of the receiving bank. */
    bank: string;
    ispb: string;
    branch: string;
    account: string;
    accountDigit: string;
    holderName: string;
    holderDocument: string;
  };
  idempotencyKey: string;
}

export type BankOutcome =
  | { status: 'processing' }
  | { status: 'transferred'; endToEndId: string | null }
  | { status: 'failed'; failureCode: BankFailureCode; failureMessage: string }
  | { status: 'returned'; failureCode: BankFailureCode; failureMessage: string };

export type BankFailureCode = 'account_closed' | 'invalid_account' | 'returned_by_receiver' | 'bank_error';

export interface SubmittedTransfer {
  transfer: BankTransfer;
  /** The bank's reference, from `submit`. */
  reference: string;
  submittedAt: Date;
  /** When the bank said it was transferred (a check for a return), null before. */
  transferredAt: Date | null;
}

export interface BankConnector {
  /** How long after a transfer the bank may still send it back: transferred withdrawals are checked that long. */
  readonly returnWindowMs: number;
  submit(transfer: BankTransfer): Promise<{ reference: string }>;
  /** What the bank says now of a transfer submitted before. */
  check(submitted: SubmittedTransfer, now: Date): Promise<BankOutcome>;
}

export const FAILURE_MESSAGES: Readonly<Record<BankFailureCode, string>> = {
  account_closed: 'The receiving bank says the account is closed. Register another bank account.',
  invalid_account: 'The receiving bank has no such account. Check the account number and its digit.',
  returned_by_receiver: 'The receiving bank sent the money back after the transfer.',
  bank_error: 'The bank could not make the transfer; the money is back in the available balance.',
};

export interface TestBankAccount {
  account: string;
  outcome: 'transferred' | 'account_closed' | 'invalid_account' | 'returned_by_receiver';
}

/** Account numbers (any bank, branch and digit) whose withdrawals the simulated bank fails or returns. */
export const TEST_BANK_ACCOUNTS: readonly TestBankAccount[] = [
  { account: '99999991', outcome: 'account_closed' },
  { account: '99999992', outcome: 'invalid_account' },
  { account: '99999993', outcome: 'returned_by_receiver' },
];

/** The simulated bank answers this long after a submission, and returns this long after a transfer. */
export const SIMULATED_BANK_DELAYS_MS = { answer: 1_000, return: 2_000 } as const;

/** The ISPB the simulated bank sends from (the end-to-end id names the sender's institution). */
const SIMULATED_ISPB = '99999999';

/** A PIX end-to-end id: E, the sender's ISPB, the UTC minute (yyyyMMddHHmm), 11 letters or digits. */
function endToEndId(withdrawalId: string, at: Date): string {
  const minute = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  const tail = createHash('sha256').update(withdrawalId).digest('hex').slice(0, 11);
  return `E${SIMULATED_ISPB}${minute}${tail}`;
}

/**
 * Keeps no state, so that any number of instances agree on every transfer: the outcome follows from the account
 * number, and its time from when the transfer was submitted.
 */
export function simulatedBank(): BankConnector {
  const outcomeOf = (account: string) =>
    TEST_BANK_ACCOUNTS.find((test) => test.account === account)?.outcome ?? 'transferred';
  return {
    returnWindowMs: 60_000,
    async submit(transfer) {
      return { reference: `sim_${transfer.withdrawalId}` };
    },
    async check({ transfer, submittedAt, transferredAt }, now) {
      if (now.getTime() - submittedAt.getTime() < SIMULATED_BANK_DELAYS_MS.answer) {
        return { status: 'processing' };
      }
      const outcome = outcomeOf(transfer.destination.account);
      if (outcome === 'account_closed' || outcome === 'invalid_account') {
        return { status: 'failed', failureCode: outcome, failureMessage: FAILURE_MESSAGES[outcome] };
      }
      const transferred = {
        status: 'transferred' as const,
        endToEndId: transfer.method === 'pix' ? endToEndId(transfer.withdrawalId, submittedAt) : null,
      };
      if (
        outcome === 'returned_by_receiver' &&
        transferredAt &&
        now.getTime() - transferredAt.getTime() >= SIMULATED_BANK_DELAYS_MS.return
      ) {
        return { status: 'returned', failureCode: outcome, failureMessage: FAILURE_MESSAGES[outcome] };
      }
      return transferred;
    },
  };
}

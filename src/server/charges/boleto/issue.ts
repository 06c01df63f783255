import { randomBytes, randomInt } from 'node:crypto';
import { type PaymentServiceProvider, pspKey } from '../psp.js';
import { boletoNumbers } from './barcode.js';
import { BOLETO_GRACE_DAYS } from './schemas.js';

export interface BoletoDetails {
  bank: string;
  barcode: string;
  digitableLine: string;
  dueDate: string;
  ourNumber: string;
  instructions: string | null;
  pageToken: string;
  url: string;
}

/** 17 random digits: the boleto's number in the PSP's agreement (unique in the table; a clash is a 1-in-10^17). */
function newOurNumber(): string {
  let digits = '';
  while (digits.length < 17) digits += String(randomInt(0, 10));
  return digits;
}

/** Brazil's date now (America/Sao_Paulo is UTC−3 all year since 2019). */
export function brazilToday(now: Date): string {
  return new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The end of the grace period: midnight in Brazil after the due date plus BOLETO_GRACE_DAYS. */
export function boletoExpiresAt(dueDate: string): string {
  return `${addDays(dueDate, BOLETO_GRACE_DAYS + 1)}T03:00:00.000Z`;
}

/** Registers the boleto with the PSP's bank and writes its numbers and the printable page's address. */
export async function issueBoleto(
  psp: PaymentServiceProvider,
  input: {
    chargeId: string;
    amount: number;
    dueDate: string;
    instructions: string | null;
    payer: { name: string; document: string };
    /** Where the service is reached (scheme and host), for the printable page's URL. */
    publicOrigin: string;
  },
): Promise<BoletoDetails> {
  const ourNumber = newOurNumber();
  const { bank, freeField } = await psp.registerBoleto({
    ourNumber,
    amount: input.amount,
    dueDate: input.dueDate,
    payer: input.payer,
    idempotencyKey: pspKey(input.chargeId, 'boleto'),
  });
  const { barcode, digitableLine } = boletoNumbers({
    bank,
    dueDate: input.dueDate,
    amount: input.amount,
    freeField,
  });
  const pageToken = randomBytes(24).toString('base64url');
  return {
    bank,
    barcode,
    digitableLine,
    dueDate: input.dueDate,
    ourNumber,
    instructions: input.instructions,
    pageToken,
    url: `${input.publicOrigin}/v1/boletos/${pageToken}`,
  };
}

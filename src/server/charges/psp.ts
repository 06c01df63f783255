/**
 * The PSP seam: the payment institution that issues a PIX charge's payment location and registers a boleto with
 * its bank, then tells the service when the buyer paid. Like the card acquirer (acquirer.ts), it is an async
 * interface with an idempotency key per call, injectable as `buildApp(config, { psp })` and read as `app.psp`.
 *
 * `simulatedPsp` is the implementation for development and tests: it registers nothing anywhere, answers a
 * location under the reserved `.test` domain and a bank code no real bank has (999), and payments reach it only
 * through test mode (`POST /v1/test/charges/:id/pay`). A live PSP calls `recordPayment` (pending.ts) from its
 * own notification route.
 */
export interface PixChargeRequest {
  /** The charge's id at the PSP: 26–35 letters and digits (the central bank's API Pix). */
  txid: string;
  /** Minor units (centavos). */
  amount: number;
  expiresInSeconds: number;
  idempotencyKey: string;
}

export interface BoletoRequest {
  /** The boleto's number within the PSP's agreement with its bank ("nosso número"), 17 digits. */
  ourNumber: string;
  amount: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  payer: { name: string; document: string };
  idempotencyKey: string;
}

export interface PaymentServiceProvider {
  /** The city of the account that receives PIX payments (the BR Code's merchant city). */
  readonly pixMerchantCity: string;
  /** Registers a PIX charge; answers the payload location its dynamic BR Code names (without scheme). */
  createPixCharge(request: PixChargeRequest): Promise<{ location: string }>;
  /** Registers a boleto; answers the issuing bank's code and the barcode's 25-digit free field. */
  registerBoleto(request: BoletoRequest): Promise<{ bank: string; freeField: string }>;
}

/** The simulated PSP's agreement number with its (simulated) bank: the free field's first 8 digits. */
const SIMULATED_AGREEMENT = '00012345';

export function simulatedPsp(): PaymentServiceProvider {
  return {
    pixMerchantCity: 'SAO PAULO',
    async createPixCharge({ txid }) {
      return { location: `psp.vigia.test/pix/v2/cob/${txid}` };
    },
    async registerBoleto({ ourNumber }) {
      return { bank: '999', freeField: `${SIMULATED_AGREEMENT}${ourNumber}` };
    },
  };
}

/** The keys of a charge's PSP calls: one per charge and operation, stable across retries. */
export const pspKey = (chargeId: string, operation: 'pix' | 'boleto') => `${chargeId}:${operation}`;

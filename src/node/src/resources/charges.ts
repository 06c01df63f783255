import { type CallOptions, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type { Charge, ChargeCreateParams, ChargeListParams, ChargeReviewParams } from '../types.js';

/**
 * Charges: create one from a card token, or a PIX code or a boleto (pending until paid or expired), with the
 * checkout's fraud session; read, list (`payment_method` filter), refund a card charge.
 */
export class Charges {
  constructor(private readonly transport: Transport) {}

  /**
   * Charges the card token. Resolves with the charge whether it was captured or failed (`status`,
   * `failure_code`); throws `VigiaApiError` when no charge was made (422 `TOKEN_*`, `FRAUD_SESSION_*`, …).
   */
  create(params: ChargeCreateParams, options: RequestOptions = {}): Promise<Charge> {
    return this.transport.create('/v1/charges', params, options);
  }

  get(id: string, options?: CallOptions): Promise<Charge> {
    return this.transport.data({ method: 'GET', path: `/v1/charges/${segment(id)}`, options });
  }

  list(params: ChargeListParams = {}, options?: CallOptions): ListRequest<Charge, ChargeListParams> {
    return new ListRequest((query) => this.transport.page<Charge>('/v1/charges', query, options), params);
  }

  /**
   * Decides a charge held for review (`status: 'in_review'`): `approve` captures it, `reject` releases the
   * authorization (→ `canceled`, nothing taken). A second decision is 409 `INVALID_STATE`.
   */
  review(id: string, params: ChargeReviewParams, options: RequestOptions = {}): Promise<Charge> {
    return this.transport.create(`/v1/charges/${segment(id)}/review`, params, options);
  }

  /**
   * Test mode only (sk_test_…): the buyer pays a pending PIX or boleto charge, as the PSP reports a payment in live
   * mode; `charge.paid` follows. 409 `INVALID_STATE` when the charge expired or was paid (the payment is recorded).
   */
  payInTestMode(id: string, options: CallOptions = {}): Promise<Charge> {
    return this.transport.data({ method: 'POST', path: `/v1/test/charges/${segment(id)}/pay`, options });
  }

  /** Refunds the whole amount of a captured charge (409 `INVALID_STATE` for any other). */
  refund(id: string, options: RequestOptions = {}): Promise<Charge> {
    return this.transport.create(`/v1/charges/${segment(id)}/refund`, undefined, options);
  }
}

import { type CallOptions, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type { Charge, ChargeCreateParams, ChargeListParams } from '../types.js';

/** Charges: create one from a card token and the checkout's fraud session, read, list, refund. */
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

  /** Refunds the whole amount of a captured charge (409 `INVALID_STATE` for any other). */
  refund(id: string, options: RequestOptions = {}): Promise<Charge> {
    return this.transport.create(`/v1/charges/${segment(id)}/refund`, undefined, options);
  }
}

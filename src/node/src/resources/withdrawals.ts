import { type CallOptions, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type {
  Withdrawal,
  WithdrawalCarriedReceivable,
  WithdrawalCreateParams,
  WithdrawalEntry,
  WithdrawalListParams,
  WithdrawalReceivablesParams,
  WithdrawalTerms,
} from '../types.js';

/**
 * Withdrawals: a wallet's available money sent to its owner's verified bank account, by PIX or TED; the ledger
 * entries each made and the receivables it carried.
 */
export class Withdrawals {
  constructor(private readonly transport: Transport) {}

  /**
   * Creates a pending withdrawal (its amount + fee leave `available`). An Idempotency-Key is sent for you (yours
   * with `options.idempotencyKey`), reused by every retry, so a retry never withdraws twice. Throws
   * `VigiaApiError` on a refusal (422 `WITHDRAWAL_*`).
   */
  create(params: WithdrawalCreateParams, options: RequestOptions = {}): Promise<Withdrawal> {
    return this.transport.create('/v1/withdrawals', params, options);
  }

  get(id: string, options?: CallOptions): Promise<Withdrawal> {
    return this.transport.data({ method: 'GET', path: `/v1/withdrawals/${segment(id)}`, options });
  }

  list(
    params: WithdrawalListParams = {},
    options?: CallOptions,
  ): ListRequest<Withdrawal, WithdrawalListParams> {
    return new ListRequest(
      (query) => this.transport.page<Withdrawal>('/v1/withdrawals', query, options),
      params,
    );
  }

  /** Cancels a pending withdrawal (409 `INVALID_STATE` for any other status); its money returns to available. */
  cancel(id: string, options: RequestOptions = {}): Promise<Withdrawal> {
    return this.transport.create(`/v1/withdrawals/${segment(id)}/cancel`, undefined, options);
  }

  /** The minimum withdrawal and the fee of each method. */
  terms(options?: CallOptions): Promise<WithdrawalTerms> {
    return this.transport.data({ method: 'GET', path: '/v1/withdrawals/terms', options });
  }

  /** Every ledger posting the withdrawal made, oldest first. */
  entries(id: string, options?: CallOptions): Promise<WithdrawalEntry[]> {
    return this.transport.data({ method: 'GET', path: `/v1/withdrawals/${segment(id)}/entries`, options });
  }

  /** The settled receivables whose money the withdrawal carried, oldest settled first. */
  receivables(
    id: string,
    params: WithdrawalReceivablesParams = {},
  ): ListRequest<WithdrawalCarriedReceivable, WithdrawalReceivablesParams> {
    return new ListRequest(
      (query) =>
        this.transport.page<WithdrawalCarriedReceivable>(`/v1/withdrawals/${segment(id)}/receivables`, query),
      params,
    );
  }
}

import { type CallOptions, type Query, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type {
  Anticipation,
  AnticipationCreateParams,
  AnticipationLimits,
  AnticipationLimitsParams,
  AnticipationListParams,
  AnticipationSimulation,
} from '../types.js';

/**
 * Anticipations: waiting receivables paid before their date, for a fee. Read the limits, simulate, create (an
 * `Idempotency-Key` is sent for you and reused by retries), follow the status, cancel while pending.
 */
export class Anticipations {
  constructor(private readonly transport: Transport) {}

  /** The smallest and largest anticipation possible now, with fees; `reason` says why the largest is zero. */
  limits(params: AnticipationLimitsParams = {}, options?: CallOptions): Promise<AnticipationLimits> {
    return this.transport.data({
      method: 'GET',
      path: '/v1/anticipations/limits',
      query: params as Query,
      options,
    });
  }

  /** What `create` would anticipate (receivables, fee, net), creating nothing. */
  simulate(params: AnticipationCreateParams, options?: CallOptions): Promise<AnticipationSimulation> {
    return this.transport.data({
      method: 'POST',
      path: '/v1/anticipations',
      body: { ...params, dry_run: true },
      options,
    });
  }

  /** Creates the anticipation (`pending`, or `approved` within the automatic approval limit). */
  create(params: AnticipationCreateParams, options: RequestOptions = {}): Promise<Anticipation> {
    return this.transport.create('/v1/anticipations', { ...params, dry_run: false }, options);
  }

  get(id: string, options?: CallOptions): Promise<Anticipation> {
    return this.transport.data({ method: 'GET', path: `/v1/anticipations/${segment(id)}`, options });
  }

  /** Filters: `status`, `submerchant_id`, and the usual. */
  list(
    params: AnticipationListParams = {},
    options?: CallOptions,
  ): ListRequest<Anticipation, AnticipationListParams> {
    return new ListRequest(
      (query) => this.transport.page<Anticipation>('/v1/anticipations', query, options),
      params,
    );
  }

  /** Cancels a pending anticipation (409 `INVALID_STATE` otherwise); its receivables are free again. */
  cancel(id: string, options?: CallOptions): Promise<Anticipation> {
    return this.transport.data({ method: 'POST', path: `/v1/anticipations/${segment(id)}/cancel`, options });
  }
}

import { type CallOptions, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type {
  Delivery,
  DeliveryListParams,
  ResponseData,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointListParams,
  WebhookEndpointSecret,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from '../types.js';

type EndpointDeleted = ResponseData<'/v1/postbacks/endpoints/{id}', 'delete'>;
const base = (id: string) => `/v1/postbacks/endpoints/${segment(id)}`;

/** Where the service sends your signed event notifications. */
export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** The answer holds the endpoint's `secret`: store it now, it is not shown again. */
  create(
    params: WebhookEndpointCreateParams,
    options: RequestOptions = {},
  ): Promise<WebhookEndpointWithSecret> {
    return this.transport.create('/v1/postbacks/endpoints', params, options);
  }

  list(
    params: WebhookEndpointListParams = {},
    options?: CallOptions,
  ): ListRequest<WebhookEndpoint, WebhookEndpointListParams> {
    return new ListRequest(
      (query) => this.transport.page<WebhookEndpoint>('/v1/postbacks/endpoints', query, options),
      params,
    );
  }

  get(id: string, options?: CallOptions): Promise<WebhookEndpoint> {
    return this.transport.data({ method: 'GET', path: base(id), options });
  }

  /** `url`, `events`, or `status` (`active` | `paused`). */
  update(id: string, params: WebhookEndpointUpdateParams, options?: CallOptions): Promise<WebhookEndpoint> {
    return this.transport.data({ method: 'PATCH', path: base(id), body: params, options });
  }

  /** Deletes the endpoint; its pending deliveries are dropped. */
  delete(id: string, options?: CallOptions): Promise<EndpointDeleted> {
    return this.transport.data({ method: 'DELETE', path: base(id), options });
  }

  /** A new signing secret; the old one stops signing at once. */
  regenerateSecret(id: string, options?: CallOptions): Promise<WebhookEndpointSecret> {
    return this.transport.data({ method: 'POST', path: `${base(id)}/secret/regenerate`, options });
  }
}

/** Each event's delivery to an endpoint, with its attempt log; redeliver one by hand. */
export class Deliveries {
  constructor(private readonly transport: Transport) {}

  list(
    endpointId: string,
    params: DeliveryListParams = {},
    options?: CallOptions,
  ): ListRequest<Delivery, DeliveryListParams> {
    const path = `${base(endpointId)}/deliveries`;
    return new ListRequest((query) => this.transport.page<Delivery>(path, query, options), params);
  }

  get(id: string, options?: CallOptions): Promise<Delivery> {
    return this.transport.data({ method: 'GET', path: `/v1/postbacks/deliveries/${segment(id)}`, options });
  }

  /** Redelivers now, whatever its status; if that fails, the retry schedule starts over. */
  retry(id: string, options?: CallOptions): Promise<Delivery> {
    return this.transport.data({
      method: 'POST',
      path: `/v1/postbacks/deliveries/${segment(id)}/retry`,
      options,
    });
  }
}

import { type RequestOptions, segment, type Transport } from '../http.js';
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

  list(params: WebhookEndpointListParams = {}): ListRequest<WebhookEndpoint, WebhookEndpointListParams> {
    return new ListRequest(
      (query) => this.transport.page<WebhookEndpoint>('/v1/postbacks/endpoints', query),
      params,
    );
  }

  get(id: string): Promise<WebhookEndpoint> {
    return this.transport.data({ method: 'GET', path: base(id) });
  }

  /** `url`, `events`, or `status` (`active` | `paused`). */
  update(id: string, params: WebhookEndpointUpdateParams): Promise<WebhookEndpoint> {
    return this.transport.data({ method: 'PATCH', path: base(id), body: params });
  }

  /** Deletes the endpoint; its pending deliveries are dropped. */
  delete(id: string): Promise<EndpointDeleted> {
    return this.transport.data({ method: 'DELETE', path: base(id) });
  }

  /** A new signing secret; the old one stops signing at once. */
  regenerateSecret(id: string): Promise<WebhookEndpointSecret> {
    return this.transport.data({ method: 'POST', path: `${base(id)}/secret/regenerate` });
  }
}

/** Each event's delivery to an endpoint, with its attempt log; redeliver one by hand. */
export class Deliveries {
  constructor(private readonly transport: Transport) {}

  list(endpointId: string, params: DeliveryListParams = {}): ListRequest<Delivery, DeliveryListParams> {
    const path = `${base(endpointId)}/deliveries`;
    return new ListRequest((query) => this.transport.page<Delivery>(path, query), params);
  }

  get(id: string): Promise<Delivery> {
    return this.transport.data({ method: 'GET', path: `/v1/postbacks/deliveries/${segment(id)}` });
  }

  /** Redelivers now, whatever its status; if that fails, the retry schedule starts over. */
  retry(id: string): Promise<Delivery> {
    return this.transport.data({ method: 'POST', path: `/v1/postbacks/deliveries/${segment(id)}/retry` });
  }
}

import { type CallOptions, type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type {
  LegalRepresentative,
  LegalRepresentativeParams,
  QueryParams,
  ResponseData,
  Submerchant,
  SubmerchantAddress,
  SubmerchantAddressParams,
  SubmerchantAddressUpdateParams,
  SubmerchantCreateParams,
  SubmerchantDocument,
  SubmerchantDocumentParams,
  SubmerchantListParams,
  SubmerchantSummary,
  SubmerchantUpdateParams,
} from '../types.js';

const base = (submerchantId: string) => `/v1/submerchants/${segment(submerchantId)}`;

type RepresentativeListParams = QueryParams<'/v1/submerchants/{id}/legal-representatives', 'get'>;
type DocumentListParams = QueryParams<'/v1/submerchants/{id}/documents', 'get'>;
type AddressListParams = QueryParams<'/v1/submerchants/{id}/addresses', 'get'>;
type RepresentativeDeleted = ResponseData<'/v1/submerchants/{id}/legal-representatives/{repId}', 'delete'>;
type AddressDeleted = ResponseData<'/v1/submerchants/{id}/addresses/{addressId}', 'delete'>;

/** A `pj` submerchant's partners; a POST with a known `document` updates that partner (upsert). */
class Representatives {
  constructor(private readonly transport: Transport) {}

  create(
    submerchantId: string,
    params: LegalRepresentativeParams,
    options: RequestOptions = {},
  ): Promise<LegalRepresentative> {
    return this.transport.create(`${base(submerchantId)}/legal-representatives`, params, options);
  }

  list(submerchantId: string, params: RepresentativeListParams = {}, options?: CallOptions) {
    const path = `${base(submerchantId)}/legal-representatives`;
    return new ListRequest((query) => this.transport.page<LegalRepresentative>(path, query, options), params);
  }

  get(submerchantId: string, representativeId: string, options?: CallOptions): Promise<LegalRepresentative> {
    return this.transport.data({
      method: 'GET',
      path: `${base(submerchantId)}/legal-representatives/${segment(representativeId)}`,
      options,
    });
  }

  /** Deletes the partner and every document linked to it. */
  delete(
    submerchantId: string,
    representativeId: string,
    options?: CallOptions,
  ): Promise<RepresentativeDeleted> {
    return this.transport.data({
      method: 'DELETE',
      path: `${base(submerchantId)}/legal-representatives/${segment(representativeId)}`,
      options,
    });
  }
}

/** Documents point at files the merchant hosts; sending a type again replaces the current one. */
class Documents {
  constructor(private readonly transport: Transport) {}

  create(
    submerchantId: string,
    params: SubmerchantDocumentParams,
    options: RequestOptions = {},
  ): Promise<SubmerchantDocument> {
    return this.transport.create(`${base(submerchantId)}/documents`, params, options);
  }

  list(submerchantId: string, params: DocumentListParams = {}, options?: CallOptions) {
    const path = `${base(submerchantId)}/documents`;
    return new ListRequest((query) => this.transport.page<SubmerchantDocument>(path, query, options), params);
  }

  get(submerchantId: string, documentId: string, options?: CallOptions): Promise<SubmerchantDocument> {
    return this.transport.data({
      method: 'GET',
      path: `${base(submerchantId)}/documents/${segment(documentId)}`,
      options,
    });
  }
}

class Addresses {
  constructor(private readonly transport: Transport) {}

  create(
    submerchantId: string,
    params: SubmerchantAddressParams,
    options: RequestOptions = {},
  ): Promise<SubmerchantAddress> {
    return this.transport.create(`${base(submerchantId)}/addresses`, params, options);
  }

  list(submerchantId: string, params: AddressListParams = {}, options?: CallOptions) {
    const path = `${base(submerchantId)}/addresses`;
    return new ListRequest((query) => this.transport.page<SubmerchantAddress>(path, query, options), params);
  }

  update(
    submerchantId: string,
    addressId: string,
    params: SubmerchantAddressUpdateParams,
    options?: CallOptions,
  ): Promise<SubmerchantAddress> {
    return this.transport.data({
      method: 'PATCH',
      path: `${base(submerchantId)}/addresses/${segment(addressId)}`,
      body: params,
      options,
    });
  }

  delete(submerchantId: string, addressId: string, options?: CallOptions): Promise<AddressDeleted> {
    return this.transport.data({
      method: 'DELETE',
      path: `${base(submerchantId)}/addresses/${segment(addressId)}`,
      options,
    });
  }
}

/** Submerchants (a marketplace's sellers): registration, its parts, and review. */
export class Submerchants {
  readonly representatives: Representatives;
  readonly documents: Documents;
  readonly addresses: Addresses;

  constructor(private readonly transport: Transport) {
    this.representatives = new Representatives(transport);
    this.documents = new Documents(transport);
    this.addresses = new Addresses(transport);
  }

  create(params: SubmerchantCreateParams, options: RequestOptions = {}): Promise<Submerchant> {
    return this.transport.create('/v1/submerchants', params, options);
  }

  list(
    params: SubmerchantListParams = {},
    options?: CallOptions,
  ): ListRequest<SubmerchantSummary, SubmerchantListParams> {
    return new ListRequest(
      (query) => this.transport.page<SubmerchantSummary>('/v1/submerchants', query, options),
      params,
    );
  }

  /** With its representatives, addresses, current documents, `requirements` and `status_history`. */
  get(id: string, options?: CallOptions): Promise<Submerchant> {
    return this.transport.data({ method: 'GET', path: base(id), options });
  }

  /** Only while `pending`. */
  update(id: string, params: SubmerchantUpdateParams, options?: CallOptions): Promise<Submerchant> {
    return this.transport.data({ method: 'PATCH', path: base(id), body: params, options });
  }

  /** `pending` → `pending_review` (a `pj` needs a legal representative). */
  submitForReview(id: string, options?: CallOptions): Promise<Submerchant> {
    return this.transport.data({ method: 'POST', path: `${base(id)}/submit-for-review`, options });
  }

  /** `rejected` → `pending`, to edit and submit again. */
  requestResubmission(id: string, options?: CallOptions): Promise<Submerchant> {
    return this.transport.data({ method: 'POST', path: `${base(id)}/request-resubmission`, options });
  }
}

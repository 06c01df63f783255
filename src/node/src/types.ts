// Names for the shapes of the API, all taken from the generated `openapi.ts` (never written by hand), so that a
// change of the service's schemas changes them too.
import type { paths } from './openapi.js';

type Verb = 'get' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, V extends Verb> = NonNullable<paths[P][V]>;
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Success<P extends keyof paths, V extends Verb> =
  Operation<P, V> extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201 | 202>]> : never;

/** The `data` of an operation's success answer. */
export type ResponseData<P extends keyof paths, V extends Verb> =
  Success<P, V> extends { data: infer D } ? D : never;
/** An operation's JSON request body. */
export type RequestBody<P extends keyof paths, V extends Verb> =
  Operation<P, V> extends {
    requestBody?: infer B;
  }
    ? Json<NonNullable<B>>
    : never;
/** An operation's query parameters. */
export type QueryParams<P extends keyof paths, V extends Verb> = NonNullable<
  Operation<P, V>['parameters']['query']
>;
type Item<T> = T extends readonly (infer I)[] ? I : never;

/** `{ page, limit, total, totalPages }` of a list answer. */
export type Pagination = Success<'/v1/charges', 'get'> extends { pagination: infer P } ? P : never;

export type Charge = ResponseData<'/v1/charges/{id}', 'get'>;
export type ChargeCreateParams = RequestBody<'/v1/charges', 'post'>;
export type ChargeListParams = QueryParams<'/v1/charges', 'get'>;
export type ChargeReviewParams = RequestBody<'/v1/charges/{id}/review', 'post'>;
export type ChargeReview = NonNullable<Charge['review']>;
export type FraudAnalysis = Charge['fraud_analysis'];

export type Dispute = ResponseData<'/v1/disputes/{id}', 'get'>;
export type DisputeListParams = QueryParams<'/v1/disputes', 'get'>;
export type DisputeEvidenceParams = RequestBody<'/v1/disputes/{id}/evidence', 'post'>;
export type ReasonCode = Item<FraudAnalysis['reasons']>;

export type Receivable = ResponseData<'/v1/receivables/{id}', 'get'>;
export type ReceivableListParams = QueryParams<'/v1/receivables', 'get'>;
export type Anticipation = ResponseData<'/v1/anticipations/{id}', 'get'>;
export type AnticipationSimulation = Exclude<ResponseData<'/v1/anticipations', 'post'>, Anticipation>;
export type AnticipationCreateParams = Omit<RequestBody<'/v1/anticipations', 'post'>, 'dry_run'>;
export type AnticipationListParams = QueryParams<'/v1/anticipations', 'get'>;
export type AnticipationLimits = ResponseData<'/v1/anticipations/limits', 'get'>;
export type AnticipationLimitsParams = QueryParams<'/v1/anticipations/limits', 'get'>;
export type Wallet = ResponseData<'/v1/wallets/{id}', 'get'>;
export type WalletListParams = QueryParams<'/v1/wallets', 'get'>;
export type WalletEntry = Item<ResponseData<'/v1/wallets/{id}/entries', 'get'>>;
export type WalletEntryListParams = QueryParams<'/v1/wallets/{id}/entries', 'get'>;

export type Withdrawal = ResponseData<'/v1/withdrawals/{id}', 'get'>;
export type WithdrawalCreateParams = RequestBody<'/v1/withdrawals', 'post'>;
export type WithdrawalListParams = QueryParams<'/v1/withdrawals', 'get'>;
export type WithdrawalTerms = ResponseData<'/v1/withdrawals/terms', 'get'>;
export type WithdrawalEntry = Item<ResponseData<'/v1/withdrawals/{id}/entries', 'get'>>;
export type WithdrawalCarriedReceivable = Item<ResponseData<'/v1/withdrawals/{id}/receivables', 'get'>>;
export type WithdrawalReceivablesParams = QueryParams<'/v1/withdrawals/{id}/receivables', 'get'>;

export type FraudSession = ResponseData<'/v1/fraud/sessions/{id}', 'get'>;

export type Submerchant = ResponseData<'/v1/submerchants/{id}', 'get'>;
export type SubmerchantSummary = Item<ResponseData<'/v1/submerchants', 'get'>>;
export type SubmerchantCreateParams = RequestBody<'/v1/submerchants', 'post'>;
export type SubmerchantUpdateParams = RequestBody<'/v1/submerchants/{id}', 'patch'>;
export type SubmerchantListParams = QueryParams<'/v1/submerchants', 'get'>;
export type LegalRepresentative = ResponseData<'/v1/submerchants/{id}/legal-representatives/{repId}', 'get'>;
export type LegalRepresentativeParams = RequestBody<'/v1/submerchants/{id}/legal-representatives', 'post'>;
export type SubmerchantDocument = ResponseData<'/v1/submerchants/{id}/documents/{documentId}', 'get'>;
export type SubmerchantDocumentParams = RequestBody<'/v1/submerchants/{id}/documents', 'post'>;
export type SubmerchantAddress = ResponseData<'/v1/submerchants/{id}/addresses', 'post'>;
export type SubmerchantAddressParams = RequestBody<'/v1/submerchants/{id}/addresses', 'post'>;
export type SubmerchantAddressUpdateParams = RequestBody<
  '/v1/submerchants/{id}/addresses/{addressId}',
  'patch'
>;

export type Bank = ResponseData<'/v1/banks/{code}', 'get'>;
export type BankListParams = QueryParams<'/v1/banks', 'get'>;
export type BankAccount = ResponseData<'/v1/account/bank-accounts/{bankAccountId}', 'get'>;
export type BankAccountCreateParams = RequestBody<'/v1/account/bank-accounts', 'post'>;
export type BankAccountListParams = QueryParams<'/v1/account/bank-accounts', 'get'>;

export type WebhookEndpoint = ResponseData<'/v1/postbacks/endpoints/{id}', 'get'>;
/** A created endpoint, or one whose secret was regenerated: the only answers that carry the `secret`. */
export type WebhookEndpointWithSecret = ResponseData<'/v1/postbacks/endpoints', 'post'>;
export type WebhookEndpointSecret = ResponseData<'/v1/postbacks/endpoints/{id}/secret/regenerate', 'post'>;
export type WebhookEndpointCreateParams = RequestBody<'/v1/postbacks/endpoints', 'post'>;
export type WebhookEndpointUpdateParams = RequestBody<'/v1/postbacks/endpoints/{id}', 'patch'>;
export type WebhookEndpointListParams = QueryParams<'/v1/postbacks/endpoints', 'get'>;
export type WebhookEventType = Item<WebhookEndpointCreateParams['events']>;

/** A delivery of an event to an endpoint, with its attempt log. */
export type Delivery = ResponseData<'/v1/postbacks/deliveries/{id}', 'get'>;
export type DeliveryListParams = QueryParams<'/v1/postbacks/endpoints/{id}/deliveries', 'get'>;

/** One page of a list: its items and where it is in the whole. */
export interface ListPage<T> {
  data: T[];
  pagination: Pagination;
}

export type { paths } from './openapi.js';

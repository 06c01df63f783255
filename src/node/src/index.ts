export { VERSION, Vigia, type VigiaOptions } from './client.js';
export {
  type ErrorCode,
  type ErrorDetail,
  VigiaApiError,
  VigiaConnectionError,
  VigiaError,
  WebhookVerificationError,
} from './errors.js';
export type { CallOptions, RequestOptions } from './http.js';
export type { ListRequest } from './list.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type * from './types.js';
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  webhooks,
} from './webhooks.js';

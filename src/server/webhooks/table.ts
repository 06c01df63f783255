/**
 * The outbox's events (webhooks/outbox.ts): the resource as it was when the event happened, written in the
 * transaction of the change that caused it.
 */
export interface EventsTable {
  id: string;
  merchant_id: string;
  type: string;
  /** JSON of the resource as it was when the event happened. */
  data: string;
  created_at: string;
}

/** A merchant's notification target. */
export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  url: string;
  /** The URL's host (with its port unless the scheme's default): a worker lends one host a share of its slots. */
  host: string;
  /** JSON array of subscribed event types. */
  events: string;
  status: 'active' | 'paused';
  /** The signing secret sealed with AES-256-GCM under the master key (core/secret-box.ts), bound to `id`. */
  secret_sealed: string;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event owed to one endpoint; written with the event (outbox), worked off by the delivery worker. */
export interface WebhookDeliveriesTable {
  id: string;
  merchant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  /** Attempts made (logged in webhook_attempts). */
  attempt_count: number;
  /** Failed attempts since the schedule (re)started; indexes the retry schedule. A manual retry resets it. */
  retry_step: number;
  /** When the next attempt is due; null once succeeded or failed. */
  next_attempt_at: string | null;
  /** The worker holding the delivery and until when; an expired lease may be taken by another worker. */
  locked_by: string | null;
  lease_expires_at: string | null;
  last_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The attempt log: one row per finished attempt. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  attempted_at: string;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
}

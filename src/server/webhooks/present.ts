import type { Delivery } from './deliveries.js';
import type { Endpoint } from './service.js';

export function presentEndpoint(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

export function presentDelivery({ row, attempts }: Delivery) {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: Number(row.attempt_count),
    next_attempt_at: row.next_attempt_at,
    last_attempt_at: row.last_attempt_at,
    attempts: attempts.map((attempt) => ({
      attempt: Number(attempt.attempt),
      attempted_at: attempt.attempted_at,
      response_status: attempt.response_status === null ? null : Number(attempt.response_status),
      latency_ms: Number(attempt.latency_ms),
      error: attempt.error,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

import { type TLiteral, Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { MAX_ATTEMPTS } from './retry-schedule.js';

export const WEBHOOK_TAGS = ['webhooks'];
/** An endpoint's or a delivery's id in the path. */
export const IdParams = Type.Object({ id: Id });

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Absolute URL that receives POSTed notifications. In production: https and a public address only.',
});

const EndpointStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')], {
  description: 'A paused endpoint receives nothing: events meanwhile are not queued for it.',
});

const endpointFields = {
  id: Id,
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: EndpointStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const EndpointSchema = Type.Object(endpointFields, {
  description: 'A webhook endpoint. Its secret is shown only when created or regenerated.',
});

export const EndpointWithSecretSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'The signing secret (whsec_…). Shown only now: store it; X-Service-Signature is HMAC-SHA256 with it.',
    }),
  },
  { description: 'A webhook endpoint with its signing secret.' },
);

/** The bodies that subscribe an endpoint, built from the event types the app hands to the webhooks plugin. */
export function endpointBodies(eventTypes: readonly string[]) {
  const events = Type.Array(
    Type.Union(
      eventTypes.map((type): TLiteral<string> => Type.Literal(type)),
      { description: 'An event name (see the webhooks guide).' },
    ),
    {
      minItems: 1,
      maxItems: eventTypes.length,
      uniqueItems: true,
      description: 'The events this endpoint receives; at least one.',
    },
  );
  return {
    create: Type.Object({ url: Url, events }, { additionalProperties: false }),
    patch: Type.Object(
      { url: Type.Optional(Url), events: Type.Optional(events), status: Type.Optional(EndpointStatus) },
      { additionalProperties: false, minProperties: 1 },
    ),
  };
}

export const DeletedSchema = Type.Object({ id: Id, deleted: Type.Literal(true) });

const AttemptSchema = Type.Object({
  attempt: Type.Integer({ description: '1 for the first attempt.' }),
  attempted_at: Timestamp,
  response_status: Type.Union([Type.Integer(), Type.Null()], {
    description: "The receiver's HTTP status; null when no response came (timeout, connection error).",
  }),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why no response came, when none did.' }),
});

export const DeliverySchema = Type.Object(
  {
    id: Id,
    endpoint_id: Id,
    event_id: Id,
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description: `pending (queued or waiting for a retry), succeeded (a 2xx answer), failed (${MAX_ATTEMPTS} attempts failed).`,
    }),
    attempt_count: Type.Integer(),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'When the next attempt is due.' }),
    last_attempt_at: Type.Union([Timestamp, Type.Null()]),
    attempts: Type.Array(AttemptSchema, { description: 'The attempt log, oldest first.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'One event owed to one endpoint, with its attempt log.' },
);

import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { SIGNALS_MAX_BYTES } from '@vigia/sdk/internal';
import { Id, Timestamp } from '../http/envelope.js';
import { BehaviorSchema } from './behavior.js';
import type { FraudSessionStatus } from './service.js';
import { BROWSER_TYPES, type BrowserType } from './user-agent.js';

const IpAddress = Type.String({
  anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }],
  maxLength: 45,
  description: 'An IPv4 or IPv6 address.',
});

const BrowserTypeSchema = Type.Unsafe<BrowserType>({
  type: 'string',
  enum: [...BROWSER_TYPES],
  description: 'Browser family: Chrome, Firefox, Safari, Edge, Opera or Other.',
});

/** Durations are in milliseconds; a report of more than 10 minutes is a broken clock, not a slow device. */
const DurationMs = Type.Number({ minimum: 0, maximum: 600_000 });

/** A challenge probe's id (kebab-case), as the service names it and the profiler answers it. */
const ProbeId = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$' });

export const CreateFraudSessionBody = Type.Object(
  {
    ip_address: Type.Union([IpAddress, Type.Null()], {
      description: "The buyer's public IP as the page knows it, or null (the SDK reports its lookup later).",
    }),
    type: BrowserTypeSchema,
    host_name: Type.String({
      format: 'hostname',
      minLength: 1,
      maxLength: 253,
      description: 'The host name of the checkout page (location.hostname).',
    }),
    cookies_accepted: Type.Boolean({ description: 'Whether the page can set and read a cookie.' }),
    user_agent: Type.String({ maxLength: 1024, description: 'navigator.userAgent.' }),
  },
  { additionalProperties: false },
);
export type CreateFraudSessionBody = Static<typeof CreateFraudSessionBody>;

export const SignalsBody = Type.Object(
  {
    signals_token: Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "The session's signals_token from POST /v1/fraud/sessions: binds the report to its session.",
    }),
    ip_lookup: Type.Object(
      {
        status: Type.Unsafe<'ok' | 'timeout' | 'error'>({ type: 'string', enum: ['ok', 'timeout', 'error'] }),
        ip_address: Type.Optional(IpAddress),
        source: Type.Optional(
          Type.String({ minLength: 1, maxLength: 2048, description: 'The lookup URL that answered.' }),
        ),
        duration_ms: DurationMs,
      },
      { additionalProperties: false, description: 'The public IP lookup: its answer, or why there is none.' },
    ),
    profiler: Type.Optional(
      Type.Object(
        {
          provider: Type.String({ minLength: 1, maxLength: 64, description: 'e.g. fingerprintjs+botd' }),
          visitor_id: Type.String({ minLength: 1, maxLength: 128 }),
          confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          components: Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
            maxProperties: 64,
            description: `Selected device attributes; free-form, bounded by the ${SIGNALS_MAX_BYTES / 1024} KiB body limit.`,
          }),
          bot: Type.Object(
            {
              detected: Type.Boolean(),
              kind: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            },
            { additionalProperties: false, description: 'The automation verdict.' },
          ),
          detectors: Type.Optional(
            Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }), Type.Boolean(), {
              maxProperties: 32,
              // Without it, a key that misses the pattern would pass unchecked.
              additionalProperties: false,
              description: 'Named automation detectors of the profiler (snake_case name → fired).',
            }),
          ),
          challenge: Type.Optional(
            Type.Object(
              {
                nonce: Type.String({ minLength: 1, maxLength: 64 }),
                answers: Type.Record(ProbeId, Type.String({ maxLength: 512 }), {
                  maxProperties: 16,
                  additionalProperties: false,
                }),
              },
              {
                additionalProperties: false,
                description:
                  "The answers to the session challenge: the session's nonce and each probe's answer.",
              },
            ),
          ),
          duration_ms: DurationMs,
        },
        { additionalProperties: false },
      ),
    ),
    profiler_error: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Why there is no profiler report.' }),
    ),
  },
  { additionalProperties: false },
);
export type SignalsBody = Static<typeof SignalsBody>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The challenge of `POST /v1/fraud/sessions`'s answer. */
const ChallengeSchema = Type.Object(
  {
    nonce: Type.String({ description: '16 random bytes, base64url: the probes draw their inputs from it.' }),
    probes: Type.Array(ProbeId, { description: 'The engine probes the profiler runs with it.' }),
  },
  {
    description:
      "The session challenge: the SDK's profiler answers these probes inside the page and sends the answers " +
      'with its report; the service checks them against the engine the User-Agent claims.',
  },
);

const RequestHeadersSchema = Nullable(
  Type.Object(
    {
      secure: Type.Boolean({
        description:
          'Sent to https or a loopback host: only there do browsers send Fetch Metadata and client hints.',
      }),
      values: Type.Record(Type.String(), Type.String(), {
        description:
          'The sec-ch-ua*, sec-fetch-*, accept-language, accept and accept-encoding headers present (never authorization or cookie).',
      }),
      order: Type.Array(Type.String(), { description: 'Header names, lower-cased, in the order sent.' }),
    },
    {
      description:
        "The request's headers that corroborate the claimed engine; null when not recorded (VIGIA_HEADER_EVIDENCE off, or older).",
    },
  ),
);

const UserAgentReadingSchema = Type.Object({
  type: BrowserTypeSchema,
  browser: Nullable(Type.String()),
  version: Nullable(Type.String()),
  os: Nullable(Type.String()),
  device: Nullable(Type.String()),
});

export const FraudSessionSchema = Type.Object(
  {
    id: Id,
    status: Type.Unsafe<FraudSessionStatus>({ type: 'string', enum: ['open', 'consumed', 'expired'] }),
    declared: Type.Object(
      {
        ip_address: Nullable(
          Type.String({
            description:
              "The buyer's public IP: as sent at creation, or else the SDK's public IP lookup answer once the signals brought it (null until then).",
          }),
        ),
        ip_address_source: Nullable(
          Type.Unsafe<'setup' | 'ip_lookup'>({ type: 'string', enum: ['setup', 'ip_lookup'] }),
        ),
        ip_address_received_at: Nullable(Timestamp),
        type: BrowserTypeSchema,
        host_name: Type.String(),
        cookies_accepted: Type.Boolean(),
        user_agent: Type.String(),
      },
      {
        description:
          'The five fields the browser sent. setup() answers in one round trip, so its IP lookup arrives with the signals: ip_address_source and ip_address_received_at say where and when the address came from.',
      },
    ),
    observed: Type.Object(
      {
        ip_address: Type.String({ description: 'Source IP of the creating request.' }),
        user_agent: Nullable(Type.String({ description: 'Its User-Agent header.' })),
        origin: Nullable(Type.String({ description: 'Its Origin header.' })),
        headers: RequestHeadersSchema,
        user_agent_type: Nullable(BrowserTypeSchema),
        declared_user_agent_type: BrowserTypeSchema,
        user_agent_readings: Type.Object({
          declared: UserAgentReadingSchema,
          header: Type.Union([UserAgentReadingSchema, Type.Null()]),
        }),
      },
      {
        description:
          "What the service saw, with its own ua-parser-js reading of the header's and of the declared user agent.",
      },
    ),
    signals: Type.Union([
      Type.Object({
        received_at: Timestamp,
        observed: Type.Union(
          [
            Type.Object({
              ip_address: Type.String({ description: 'Source IP of the signals request.' }),
              user_agent: Nullable(Type.String({ description: 'Its User-Agent header.' })),
              headers: RequestHeadersSchema,
            }),
            Type.Null(),
          ],
          {
            description: 'What the service saw on the signals request (null for reports before it was kept).',
          },
        ),
        visitor_id: Nullable(Type.String()),
        automation: Type.Union([Type.Boolean(), Type.Null()]),
        ip_lookup: Type.Object({
          status: Type.String(),
          ip_address: Type.Optional(Type.String()),
          source: Type.Optional(Type.String()),
          duration_ms: Type.Number(),
        }),
        profiler: Type.Union([
          Type.Object({
            provider: Type.String(),
            visitor_id: Type.String(),
            confidence: Type.Optional(Type.Number()),
            components: Type.Record(Type.String(), Type.Unknown()),
            bot: Type.Object({ detected: Type.Boolean(), kind: Type.Optional(Type.String()) }),
            detectors: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
            challenge: Type.Optional(
              Type.Object({ nonce: Type.String(), answers: Type.Record(Type.String(), Type.String()) }),
            ),
            duration_ms: Type.Number(),
          }),
          Type.Null(),
        ]),
        profiler_error: Nullable(Type.String()),
      }),
      Type.Null(),
    ]),
    challenge: Nullable(
      Type.Object(
        {
          nonce: Type.String(),
          probes: Type.Array(Type.String()),
          engine: Nullable(
            Type.Unsafe<'Blink' | 'Gecko' | 'WebKit'>({ type: 'string', enum: ['Blink', 'Gecko', 'WebKit'] }),
          ),
          status: Type.Unsafe<'passed' | 'failed' | 'unanswered' | 'not_checked'>({
            type: 'string',
            enum: ['passed', 'failed', 'unanswered', 'not_checked'],
          }),
          nonce_matches: Nullable(Type.Boolean()),
          verdicts: Type.Record(
            Type.String(),
            Type.Unsafe<'passed' | 'failed' | 'unanswered'>({
              type: 'string',
              enum: ['passed', 'failed', 'unanswered'],
            }),
          ),
        },
        {
          description:
            'The session challenge and its verdict for the engine the User-Agent claims (engine): per probe ' +
            'passed, failed (not what that engine answers) or unanswered; not_checked before a profiler ' +
            'report or for an engine the service does not know. The answers are in signals.profiler.challenge.',
        },
      ),
    ),
    behavior: Type.Union(
      [Type.Composite([Type.Object({ received_at: Timestamp }), BehaviorSchema]), Type.Null()],
      {
        description:
          'How the checkout was filled (aggregates, never a value or a key), sent by the SDK with the card token ' +
          'request; the last report while the session was open. Null when none came.',
      },
    ),
    charge_id: Nullable(Type.String({ description: 'The charge that consumed the session.' })),
    created_at: Timestamp,
    expires_at: Timestamp,
    consumed_at: Type.Union([Timestamp, Type.Null()]),
  },
  { description: 'A fraud session: status, what the browser declared, what the service saw, and signals.' },
);

export const CreatedFraudSessionSchema = Type.Object({
  sessionId: Id,
  expires_at: Timestamp,
  signals_token: Type.String({
    description:
      "Send it back as the signals body's signals_token: only the page that created the session can report " +
      "for it. Keep it in the page; the merchant's server needs only sessionId.",
  }),
  challenge: ChallengeSchema,
});

/** The public key's answer to a report: that it was recorded, never the stored session. */
export const SignalsRecordedSchema = Type.Object({
  id: Id,
  status: Type.Unsafe<'recorded'>({ type: 'string', enum: ['recorded'] }),
  received_at: Timestamp,
});

export const FraudSessionParams = Type.Object({ id: Id });

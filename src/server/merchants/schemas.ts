import { Type } from '@sinclair/typebox';
import { DEFAULT_KEY_GRACE_SECONDS, MAX_KEY_GRACE_SECONDS } from '../core/keys.js';
import { taxIdError } from '../core/tax-id.js';
import { validationError } from '../errors.js';
import { Id, Timestamp } from '../http/envelope.js';
import type { MerchantSettingsChange } from './service.js';

const HOST_NAME =
  '^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$';

export const AllowedHosts = Type.Array(Type.String({ pattern: HOST_NAME, maxLength: 253 }), {
  maxItems: 50,
  uniqueItems: true,
  description:
    'Host names (no scheme or port) allowed to run the SDK with your public key; "*.example.com" matches ' +
    'subdomains. Empty: any host.',
});

export const IpLookupUrls = Type.Array(
  Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
  {
    maxItems: 5,
    uniqueItems: true,
    description:
      "Public IP lookup URLs (answering JSON { ip }) the SDK tries in order, before the service's own GET /v1/ip. Empty: /v1/ip alone.",
  },
);

/** Checked as a CPF or CNPJ by `toSettingsChange`, which names the rule broken. */
const MerchantDocument = Type.String({
  maxLength: 20,
  description: 'Your CPF (11 digits) or CNPJ (14 digits), digits only.',
});

const RateLimit = Type.Integer({ minimum: 1, maximum: 1_000_000 });

export const MerchantSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    fraud_analysis_mandatory: Type.Boolean(),
    allowed_hosts: Type.Array(Type.String()),
    ip_lookup_urls: Type.Array(Type.String()),
    profiler_enabled: Type.Boolean(),
    rate_limits: Type.Object(
      { transactions: Type.Integer(), queries: Type.Integer(), default: Type.Integer() },
      { description: 'Requests per 60 s window and category in force for this merchant.' },
    ),
    document: Type.Union([Type.String(), Type.Null()], {
      description:
        "The merchant's CPF or CNPJ (digits only): its bank accounts' holder must have it. Null until recorded.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A merchant account and the settings in force.' },
);

export const AccountPatchBody = Type.Object(
  {
    fraud_analysis_mandatory: Type.Optional(Type.Boolean()),
    allowed_hosts: Type.Optional(AllowedHosts),
    ip_lookup_urls: Type.Optional(IpLookupUrls),
    profiler_enabled: Type.Optional(
      Type.Boolean({
        description: 'false: the SDK starts no device profiler (sessions then carry no profile).',
      }),
    ),
    document: Type.Optional(
      Type.String({
        ...MerchantDocument,
        description: `${MerchantDocument.description} Accepted while none is recorded; after that, the operator changes it.`,
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const OperatorMerchantPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    fraud_analysis_mandatory: Type.Optional(Type.Boolean()),
    allowed_hosts: Type.Optional(AllowedHosts),
    document: Type.Optional(MerchantDocument),
    rate_limits: Type.Optional(
      Type.Object(
        {
          transactions: Type.Optional(Type.Union([RateLimit, Type.Null()])),
          queries: Type.Optional(Type.Union([RateLimit, Type.Null()])),
          default: Type.Optional(Type.Union([RateLimit, Type.Null()])),
        },
        { additionalProperties: false, description: 'Per-category overrides; null restores the default.' },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export function toSettingsChange(body: {
  name?: string;
  fraud_analysis_mandatory?: boolean;
  allowed_hosts?: string[];
  ip_lookup_urls?: string[];
  profiler_enabled?: boolean;
  document?: string;
  rate_limits?: MerchantSettingsChange['rateLimits'];
}): MerchantSettingsChange {
  const documentProblem =
    body.document === undefined ? null : taxIdError('document', body.document, 'either');
  if (documentProblem) {
    throw validationError('The request body is invalid: see error.details.', [
      { field: 'document', message: documentProblem },
    ]);
  }
  return {
    document: body.document,
    name: body.name,
    fraudAnalysisMandatory: body.fraud_analysis_mandatory,
    allowedHosts: body.allowed_hosts?.map((host) => host.toLowerCase()),
    ipLookupUrls: body.ip_lookup_urls,
    profilerEnabled: body.profiler_enabled,
    rateLimits: body.rate_limits,
  };
}

const KeyType = Type.Union([Type.Literal('secret'), Type.Literal('public')]);

export const KeyRollBody = Type.Object(
  {
    type: Type.Optional(
      Type.Union(KeyType.anyOf, {
        default: 'secret',
        description: 'Which key to roll: your secret key (default) or the public key of your checkout pages.',
      }),
    ),
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_KEY_GRACE_SECONDS,
        default: DEFAULT_KEY_GRACE_SECONDS,
        description:
          'How long the replaced key keeps working, in seconds (0: it stops now; at most 7 days; default 24 hours). ' +
          'A key still in its grace period from an earlier roll stops now.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreviousKeySchema = Type.Object(
  {
    id: Id,
    type: KeyType,
    rolled_at: Timestamp,
    expires_at: Timestamp,
  },
  {
    description: 'A replaced key that keeps working until expires_at (the key itself is never shown again).',
  },
);

export const RolledKeySchema = Type.Object({
  type: KeyType,
  key: Type.String({
    description: 'The new key. Vigia keeps only its hash: this is the one time it is shown.',
  }),
  previous_key: Type.Union([PreviousKeySchema, Type.Null()], {
    description: 'The replaced key while it still works; null when it stopped at once.',
  }),
});

export const PreviousKeysSchema = Type.Object({
  previous_keys: Type.Array(PreviousKeySchema, {
    description: 'Replaced keys still in their grace period, secret first.',
  }),
});

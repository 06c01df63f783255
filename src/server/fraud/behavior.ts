import { type Static, Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { hashKey } from '../core/keys.js';
import { toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { whereReporter } from './service.js';

// Bounds: a day in ms, and counts no checkout reaches; anything beyond is not a browser's report.
const Ms = Type.Number({ minimum: 0, maximum: 86_400_000 });
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

const TimingStatsSchema = Type.Object(
  { count: Count, median: Ms, mad: Ms, sd: Ms, min: Ms },
  { additionalProperties: false },
);

/**
 * How the checkout's text fields were filled and its pointer used (the SDK's behaviour collector), aggregates
 * only: no value, no key. Field meanings in src/sdk/src/profiler/behavior/types.ts and docs/charges.md.
 */
export const BehaviorSchema = Type.Object(
  {
    elapsed_ms: Ms,
    first_input_ms: Type.Union([Ms, Type.Null()]),
    fields: Count,
    keyless_fields: Count,
    keys: Count,
    ime_keys: Count,
    inputs: Count,
    keyless_inputs: Count,
    pastes: Count,
    drops: Count,
    autofills: Count,
    intervals: Type.Union([TimingStatsSchema, Type.Null()]),
    dwell: Type.Union([TimingStatsSchema, Type.Null()]),
    // Optional: SDK builds from before they were collected still report.
    flight: Type.Optional(Type.Union([TimingStatsSchema, Type.Null()])),
    overlaps: Type.Optional(Count),
    mouse_clicks: Count,
    touch_clicks: Count,
    pen_clicks: Count,
    travelled_clicks: Count,
    mouse_moves: Count,
    path_px: Type.Number({ minimum: 0, maximum: 1e9 }),
    touches: Count,
    focus_changes: Count,
    tabs: Count,
    submits: Count,
  },
  { additionalProperties: false },
);

export type Behavior = Static<typeof BehaviorSchema>;

/** `fraud` of `POST /v1/tokens`: the session's behaviour, bound to it by the session's signals token. */
export const TokenFraudSchema = Type.Object(
  {
    session_id: Type.String({ format: 'uuid' }),
    signals_token: Type.String({ minLength: 1, maxLength: 128 }),
    behavior: BehaviorSchema,
  },
  {
    additionalProperties: false,
    description:
      "The fraud session's behaviour (the SDK sends it): stored on the session when it is the merchant's, open, " +
      'and signals_token is its token; otherwise dropped, and the card token is still created.',
  },
);

/**
 * Stores a session's behaviour report, the last one winning, while the session is open and the token is its
 * signals token (the check signals use). False when nothing was stored: unknown, closed or another token.
 */
export async function recordFraudBehavior(
  db: Kysely<Database>,
  input: { merchantId: string; sessionId: string; signalsToken: string; behavior: Behavior; now: Date },
): Promise<boolean> {
  const now = input.now.toISOString();
  const result = await whereReporter(
    db
      .updateTable('fraud_sessions')
      .set({ behavior: toJson(input.behavior), behavior_at: now, updated_at: now }),
    { merchantId: input.merchantId, sessionId: input.sessionId, now, tokenHash: hashKey(input.signalsToken) },
  ).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

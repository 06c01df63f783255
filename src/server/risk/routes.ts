import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { validationError } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses } from '../http/envelope.js';
import { DEFAULT_POLICY, policyFor } from './policy.js';
import { presentPolicy } from './present.js';
import { clearRiskThresholds, getRiskThresholds, setRiskThresholds } from './settings.js';

const Threshold = Type.Integer({ minimum: 1, maximum: 100 });

const RiskSettingsSchema = Type.Object(
  {
    review_threshold: Type.Integer({ description: 'A score at or above this is review.' }),
    decline_threshold: Type.Integer({
      description: 'A score at or above this is declined (the charge fails).',
    }),
    custom: Type.Boolean({
      description: 'Whether these thresholds are yours (false: the platform defaults).',
    }),
    weights: Type.Record(Type.String(), Type.Integer(), { description: 'Points each reason code adds.' }),
    velocity: Type.Object({
      device: Type.Object({ max_charges: Type.Integer(), window_minutes: Type.Integer() }),
      card: Type.Object({ max_charges: Type.Integer(), window_minutes: Type.Integer() }),
    }),
    linking: Type.Object(
      {
        max_cards: Type.Integer(),
        max_buyers: Type.Integer(),
        max_ips: Type.Integer(),
        window_minutes: Type.Integer(),
      },
      { description: 'VISITOR_MANY_CARDS / _BUYERS / _IPS above these counts per device in the window.' },
    ),
    graph: Type.Object(
      {
        window_minutes: Type.Integer(),
        shared_minutes: Type.Integer(),
        velocity_minutes: Type.Integer(),
        max_cards: Type.Integer(),
        min_merchants: Type.Integer(),
      },
      {
        description:
          'The platform-wide device graph: VISITOR_ID_FORGED looks back window_minutes, DEVICE_SHARED_ACROSS_MERCHANTS shared_minutes; DEVICE_CARDS_ACROSS_MERCHANTS above max_cards distinct cards at min_merchants merchants or more within velocity_minutes.',
      },
    ),
    timing: Type.Object(
      { min_profile_ms: Type.Integer(), clock_tolerance_ms: Type.Integer() },
      { description: 'SIGNALS_TOO_FAST: the least time a profiler run takes, and the clock slack allowed.' },
    ),
  },
  { description: 'The fraud analysis policy in force for your account.' },
);

const RiskSettingsPatch = Type.Object(
  {
    review_threshold: Type.Optional(
      Type.Union([Threshold, Type.Null()], { description: 'null: the default.' }),
    ),
    decline_threshold: Type.Optional(
      Type.Union([Threshold, Type.Null()], { description: 'null: the default.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The merchant's fraud analysis policy: read it all, change the two thresholds. */
export const riskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/risk/settings',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['risk'],
        summary: 'Read the fraud analysis policy: thresholds, weights, velocity windows',
        response: { 200: dataResponse(RiskSettingsSchema), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const thresholds = await getRiskThresholds(app.store.db, merchantOf(request).id);
      return {
        message: 'Risk settings retrieved.',
        data: presentPolicy(policyFor(thresholds), thresholds !== null),
      };
    },
  );

  app.patch(
    '/v1/risk/settings',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['risk'],
        summary: 'Change your review and decline thresholds',
        description:
          'A score below review_threshold is approved, from it up to decline_threshold review, at or above ' +
          'decline_threshold declined. review_threshold must not be above decline_threshold. null restores a default.',
        body: RiskSettingsPatch,
        response: { 200: dataResponse(RiskSettingsSchema), ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).id;
      const current = policyFor(await getRiskThresholds(app.store.db, merchantId)).thresholds;
      const pick = (value: number | null | undefined, fallback: number, byDefault: number) =>
        value === undefined ? fallback : value === null ? byDefault : value;
      const next = {
        review: pick(request.body.review_threshold, current.review, DEFAULT_POLICY.thresholds.review),
        decline: pick(request.body.decline_threshold, current.decline, DEFAULT_POLICY.thresholds.decline),
      };
      if (next.review > next.decline) {
        throw validationError('review_threshold must not be above decline_threshold.', [
          {
            field: 'review_threshold',
            message: `review_threshold (${next.review}) must not be above decline_threshold (${next.decline}).`,
          },
        ]);
      }
      const isDefault =
        next.review === DEFAULT_POLICY.thresholds.review &&
        next.decline === DEFAULT_POLICY.thresholds.decline;
      if (isDefault) await clearRiskThresholds(app.store.db, merchantId);
      else await setRiskThresholds(app.store.db, merchantId, next, app.clock());
      return {
        message: 'Risk settings updated.',
        data: presentPolicy(policyFor(isDefault ? null : next), !isDefault),
      };
    },
  );
};

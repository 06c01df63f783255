import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { validationError } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses } from '../http/envelope.js';
import { riskPerformance, whatIf } from './performance.js';
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

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
/** The performance report reads a period's charges at once: at most a quarter. */
export const MAX_PERFORMANCE_DAYS = 92;

const PerformanceQuery = Type.Object(
  {
    date_from: Type.Optional(
      Type.String({
        pattern: DATE,
        description: 'YYYY-MM-DD, inclusive, UTC; 30 days before date_to by default.',
      }),
    ),
    date_to: Type.Optional(
      Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive, UTC; today by default.' }),
    ),
    review_at: Type.Optional(Threshold),
    decline_at: Type.Optional(Threshold),
  },
  { additionalProperties: false },
);

const Share = Type.Object({ count: Type.Integer(), rate: Type.Number() });

const PerformanceSchema = Type.Object({
  date_from: Type.String(),
  date_to: Type.String(),
  analysed: Type.Integer({ description: 'Charges the fraud analysis scored (with a fraud session).' }),
  approved: Share,
  review: Share,
  declined: Share,
  fraud: Type.Object(
    {
      paid_count: Type.Integer(),
      paid_amount: Type.Integer(),
      disputed_count: Type.Integer(),
      disputed_amount: Type.Integer(),
      rate_by_count: Type.Number(),
      rate_by_amount: Type.Number(),
    },
    {
      description:
        'Fraud disputes over the analysed charges that took money (captured, refunded later or not).',
    },
  ),
  review_outcomes: Type.Object({
    opened: Type.Integer(),
    approved: Type.Integer(),
    rejected: Type.Integer(),
    approved_at_timeout: Type.Integer(),
    rejected_at_timeout: Type.Integer(),
    open: Type.Integer(),
  }),
  reasons: Type.Array(
    Type.Object({
      code: Type.String(),
      charges: Type.Integer(),
      fraud: Type.Integer({
        description: 'Of those, the charges labeled fraud (a rejected review, a fraud dispute).',
      }),
      precision: Type.Number(),
    }),
  ),
  what_if: Type.Object(
    {
      review_at: Type.Integer(),
      decline_at: Type.Integer(),
      days: Type.Integer(),
      analysed: Type.Integer(),
      approval_rate: Type.Number(),
      review_rate: Type.Number(),
      decline_rate: Type.Number(),
      fraud_rate_by_count: Type.Number(),
      fraud_rate_by_amount: Type.Number(),
    },
    {
      description:
        "The last 30 days' charges under review_at / decline_at (your thresholds by default): what they would have approved outright, and the fraud among those.",
    },
  ),
});

const day = (date: Date) => date.toISOString().slice(0, 10);

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

  app.get(
    '/v1/risk/performance',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['risk'],
        summary:
          'How the fraud analysis did: approval/review/decline rates, fraud rate, review outcomes, reason precision, a what-if',
        querystring: PerformanceQuery,
        response: { 200: dataResponse(PerformanceSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).id;
      const now = app.clock();
      const dateTo = request.query.date_to ?? day(now);
      const dateFrom =
        request.query.date_from ?? day(new Date(Date.parse(`${dateTo}T00:00:00Z`) - 29 * 86_400_000));
      const from = Date.parse(`${dateFrom}T00:00:00.000Z`);
      const to = Date.parse(`${dateTo}T00:00:00.000Z`) + 86_400_000;
      const days = (to - from) / 86_400_000;
      if (Number.isNaN(days) || days < 1 || days > MAX_PERFORMANCE_DAYS) {
        throw validationError(
          `date_from to date_to must be real dates, in order, at most ${MAX_PERFORMANCE_DAYS} days.`,
          [
            {
              field: 'date_to',
              message: `must be on or after date_from, within ${MAX_PERFORMANCE_DAYS} days`,
            },
          ],
        );
      }
      const current = policyFor(await getRiskThresholds(app.store.db, merchantId)).thresholds;
      const reviewAt = request.query.review_at ?? current.review;
      const declineAt = request.query.decline_at ?? current.decline;
      if (reviewAt > declineAt) {
        throw validationError('review_at must not be above decline_at.', [
          {
            field: 'review_at',
            message: `review_at (${reviewAt}) must not be above decline_at (${declineAt}).`,
          },
        ]);
      }
      const period = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
      const [performance, simulated] = await Promise.all([
        riskPerformance(app.store.db, merchantId, period),
        whatIf(app.store.db, merchantId, { reviewAt, declineAt, now }),
      ]);
      return {
        message: 'Risk performance retrieved.',
        data: { date_from: dateFrom, date_to: dateTo, ...performance, what_if: simulated },
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

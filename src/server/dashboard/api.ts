import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from '../account/routes.js';
import { operatorAnticipationRoutes } from '../anticipations/operator-routes.js';
import { anticipationRoutes } from '../anticipations/routes.js';
import { BANK_ACCOUNT_EVENT_TYPES, bankAccountRoutes } from '../bank-accounts/index.js';
import { bankRoutes } from '../banks/routes.js';
import { CHARGE_EVENT_TYPES } from '../charges/index.js';
import { presentCharge } from '../charges/present.js';
import { chargeRoutes } from '../charges/routes.js';
import { getCharge } from '../charges/service.js';
import { DEFAULT_KEY_GRACE_SECONDS } from '../core/keys.js';
import { DISPUTE_EVENT_TYPES } from '../disputes/events.js';
import { disputeRoutes } from '../disputes/routes.js';
import { notFound, validationError } from '../errors.js';
import { presentFraudSession } from '../fraud/present.js';
import { merchantOf } from '../http/auth.js';
import { Id } from '../http/envelope.js';
import { currentPublicKey, rollMerchantKey } from '../merchants/keys.js';
import { operatorMerchantRoutes } from '../merchants/operator-routes.js';
import { presentRolledKey } from '../merchants/present.js';
import { operatorPricingRoutes } from '../pricing/operator-routes.js';
import { receivableRoutes } from '../receivables/routes.js';
import { riskRoutes } from '../risk/routes.js';
import { SUBMERCHANT_EVENT_TYPES, submerchantRoutes } from '../submerchants/index.js';
import { walletRoutes } from '../wallets/routes.js';
import { findDelivery } from '../webhooks/deliveries.js';
import { deliveryRoutes } from '../webhooks/delivery-routes.js';
import { endpointRoutes } from '../webhooks/endpoint-routes.js';
import { presentDelivery } from '../webhooks/present.js';
import { WITHDRAWAL_EVENT_TYPES } from '../withdrawals/events.js';
import { withdrawalRoutes } from '../withdrawals/routes.js';
import { auditRoutes, recordDashboardChange } from './audit.js';
import { authenticateDashboardRequest } from './auth.js';
import { merchantBalances } from './balances.js';
import { chargeEvents, chargeFraudSession, explainReasons } from './charge-activity.js';
import { chargeReviewQueue } from './charge-reviews.js';
import { HomeStats, MAX_PERIOD_DAYS, periodDays } from './home.js';
import { preferenceRoutes } from './preference-routes.js';
import { receivableCalendar } from './receivable-calendar.js';
import { reviewQueue } from './review-queue.js';
import { sessionRoutes } from './session-routes.js';
import { sendTestEvent } from './test-event.js';
import { userRoutes } from './user-routes.js';
import { userEmails } from './users.js';

/**
 * The /v1 API itself, mounted again under /dashboard/api/v1 with the session as the caller: the dashboard runs
 * the very handlers merchants call with their keys (same validation, rules, events and webhooks), so the two
 * cannot drift apart.
 */
// The events endpoints may subscribe to, as app.ts hands them to the webhooks plugin.
const WEBHOOK_EVENT_TYPES = [
  ...CHARGE_EVENT_TYPES,
  ...DISPUTE_EVENT_TYPES,
  ...SUBMERCHANT_EVENT_TYPES,
  ...BANK_ACCOUNT_EVENT_TYPES,
  ...WITHDRAWAL_EVENT_TYPES,
];

const sameApi: FastifyPluginAsync = async (app) => {
  await app.register(accountRoutes);
  await app.register(riskRoutes);
  await app.register(chargeRoutes);
  await app.register(disputeRoutes);
  await app.register(endpointRoutes, { eventTypes: WEBHOOK_EVENT_TYPES });
  await app.register(deliveryRoutes);
  await app.register(submerchantRoutes);
  await app.register(operatorMerchantRoutes);
  await app.register(bankRoutes);
  await app.register(bankAccountRoutes);
  await app.register(operatorPricingRoutes);
  await app.register(receivableRoutes);
  await app.register(walletRoutes);
  await app.register(anticipationRoutes);
  await app.register(operatorAnticipationRoutes);
  await app.register(withdrawalRoutes);
};

/** What only the dashboard shows: views that join several resources for people rather than programs. */
const dashboardViews: FastifyPluginAsyncTypebox = async (app) => {
  const home = new HomeStats(app.store.db);

  app.get(
    '/charges/:id/activity',
    { config: { auth: 'secret' }, schema: { params: Type.Object({ id: Id }) } },
    async (request) => {
      const merchantId = merchantOf(request).id;
      const charge = await getCharge(app.store.db, merchantId, request.params.id);
      if (!charge) throw notFound('Charge');
      const session = await chargeFraudSession(app.store.db, merchantId, charge.fraudSessionId);
      const { events, deliveries } = await chargeEvents(
        app.store.db,
        merchantId,
        charge.id,
        charge.createdAt,
      );
      return {
        message: 'Charge activity retrieved.',
        data: {
          reasons: explainReasons(charge.fraudAnalysis.reasons),
          fraud_session: session ? presentFraudSession(session, app.clock()) : null,
          events,
          deliveries: deliveries.map(presentDelivery),
        },
      };
    },
  );

  app.get('/webhooks/event-types', { config: { auth: 'secret' } }, async () => ({
    message: 'Event types retrieved.',
    data: WEBHOOK_EVENT_TYPES,
  }));

  app.post(
    '/webhooks/endpoints/:id/test',
    { config: { auth: 'secret' }, schema: { params: Type.Object({ id: Id }) } },
    async (request, reply) => {
      const merchantId = merchantOf(request).id;
      const deliveryId = await sendTestEvent(app.store.db, merchantId, request.params.id, app.clock());
      app.outbox.wakeWorkers();
      const delivery = await findDelivery(app.store.db, merchantId, deliveryId);
      reply.status(202);
      return { message: 'Test event queued.', data: delivery ? presentDelivery(delivery) : null };
    },
  );

  app.get(
    '/operator/review-queue',
    {
      config: { auth: 'operator' },
      schema: {
        querystring: Type.Object(
          {
            page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { rows, pagination } = await reviewQueue(
        app.store.db,
        request.query.page ?? 1,
        request.query.limit ?? 20,
      );
      return { message: 'Review queue retrieved.', data: rows, pagination };
    },
  );

  const ReviewQueueQuery = Type.Object(
    {
      order: Type.Optional(
        Type.Union([Type.Literal('oldest'), Type.Literal('largest')], { default: 'oldest' }),
      ),
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    },
    { additionalProperties: false },
  );
  const reviewQueueOf = async (merchantId: string | null, query: typeof ReviewQueueQuery.static) => {
    const { charges, pagination } = await chargeReviewQueue(app.store.db, {
      merchantId,
      order: query.order ?? 'oldest',
      page: query.page ?? 1,
      limit: query.limit ?? 20,
    });
    const data = charges.map(({ charge, merchantName }) => ({
      ...presentCharge(charge),
      merchant_id: charge.merchantId,
      merchant_name: merchantName,
    }));
    return { message: 'Charges in review retrieved.', data, pagination };
  };

  // The merchant's queue of charges held for review; decisions go through POST /v1/charges/:id/review.
  app.get(
    '/charge-reviews',
    { config: { auth: 'secret' }, schema: { querystring: ReviewQueueQuery } },
    async (request) => reviewQueueOf(merchantOf(request).id, request.query),
  );

  // Every merchant's, for the operator to watch (a merchant decides its own).
  app.get(
    '/operator/charge-reviews',
    { config: { auth: 'operator' }, schema: { querystring: ReviewQueueQuery } },
    async (request) => reviewQueueOf(null, request.query),
  );

  // Every role may read it: a public key is publishable (it is in the merchant's checkout pages).
  app.get('/keys/public', { config: { auth: 'secret' } }, async (request) => ({
    message: 'Public key retrieved.',
    data: { public_key: await currentPublicKey(app.store.db, merchantOf(request).id) },
  }));

  // Owners only: a rolled secret key breaks the merchant's server once the old key's grace period ends.
  app.post(
    '/keys/:kind/roll',
    {
      config: { auth: 'secret', ownerOnly: true },
      schema: { params: Type.Object({ kind: Type.Union([Type.Literal('secret'), Type.Literal('public')]) }) },
    },
    async (request) => {
      const merchantId = merchantOf(request).id;
      const rolled = await rollMerchantKey(app.store.db, {
        merchantId,
        type: request.params.kind,
        graceSeconds: DEFAULT_KEY_GRACE_SECONDS,
        live: app.config.env === 'production',
        now: app.clock(),
      });
      app.credentials.forgetMerchant(merchantId);
      return {
        message: `New ${request.params.kind} key issued; it is shown only now. The old one works until its expiry.`,
        data: presentRolledKey(rolled),
      };
    },
  );

  app.get(
    '/home',
    {
      config: { auth: 'secret' },
      schema: {
        querystring: Type.Object(
          { date_from: Type.String({ format: 'date' }), date_to: Type.String({ format: 'date' }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const period = { from: request.query.date_from, to: request.query.date_to };
      const days = periodDays(period);
      if (days < 1 || days > MAX_PERIOD_DAYS) {
        throw validationError(`The period must run forward and last at most ${MAX_PERIOD_DAYS} days.`, [
          { field: 'date_to', message: `must be on or after date_from, within ${MAX_PERIOD_DAYS} days` },
        ]);
      }
      const stats = await home.forPeriod(merchantOf(request).id, period, app.clock());
      return { message: 'Home retrieved.', data: stats };
    },
  );

  app.get('/balances', { config: { auth: 'secret', rateLimit: 'queries' } }, async (request) => ({
    message: 'Balances retrieved.',
    data: await merchantBalances(app.store.db, merchantOf(request).id, app.clock()),
  }));

  app.get(
    '/receivables/calendar',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        querystring: Type.Object(
          {
            month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
            recipient_id: Type.Optional(
              Type.String({
                format: 'uuid',
                description: "Only this recipient's: yours or a submerchant's.",
              }),
            ),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => ({
      message: 'Receivable calendar retrieved.',
      data: await receivableCalendar(
        app.store.db,
        merchantOf(request).id,
        request.query.month,
        request.query.recipient_id?.toLowerCase(),
      ),
    }),
  );

  // Status histories record the operator user's id as the actor; people read e-mails.
  app.get(
    '/users/names',
    {
      config: { auth: 'operator' },
      schema: { querystring: Type.Object({ ids: Type.String({ maxLength: 4000 }) }) },
    },
    async (request) => {
      const ids = request.query.ids.split(',').filter(Boolean).slice(0, 100);
      return { message: 'Users retrieved.', data: Object.fromEntries(await userEmails(app.store.db, ids)) };
    },
  );
};

/** Everything under /dashboard/api: sign-in, the /v1 API by session, and the dashboard's own views. */
export const dashboardApi: FastifyPluginAsync = async (app) => {
  app.decorateRequest('dashboardSession', null);
  // The OpenAPI document describes the key-authenticated API, not the dashboard's copy of it.
  // The app's key authentication and rate limits do not apply here: each route's auth decision moves to
  // `dashboardAuth` and its bucket to `dashboardRateLimit`, which the session hook enforces once it knows the
  // user (dashboard/auth.ts): in the merchant's buckets, with the operator's overrides, and the user's own.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
    const { auth, rateLimit, ...config } = route.config ?? {};
    // The dashboard's own views count as `default`; sign-in has its own limits, and signing out always works.
    const unmetered = config.dashboardPublic || config.anyRole;
    const dashboardRateLimit = rateLimit ?? (unmetered ? 'none' : 'default');
    route.config = { ...config, auth: 'none', dashboardAuth: auth ?? 'none', dashboardRateLimit };
  });
  app.addHook('onRequest', async (request, reply) => authenticateDashboardRequest(app, request, reply));
  // Before the answer leaves: whoever sees a change done can find it in the audit.
  app.addHook('onSend', async (request, reply, payload) => {
    await recordDashboardChange(request, reply);
    return payload;
  });
  // A signed-in answer is private to its user: never cached by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  await app.register(sessionRoutes);
  await app.register(preferenceRoutes);
  await app.register(userRoutes);
  await app.register(auditRoutes);
  await app.register(sameApi);
  await app.register(dashboardViews);
};

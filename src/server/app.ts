import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { accountKeyRoutes } from './account/keys-routes.js';
import { accountRoutes } from './account/routes.js';
import { ANTICIPATION_EVENT_TYPES } from './anticipations/events.js';
import { operatorAnticipationRoutes } from './anticipations/operator-routes.js';
import { anticipationRoutes } from './anticipations/routes.js';
import { BANK_ACCOUNT_EVENT_TYPES, bankAccountRoutes } from './bank-accounts/index.js';
import { bankRoutes } from './banks/routes.js';
import { keyLookup } from './callers.js';
import { type CardAcquirer, simulatedAcquirer } from './charges/acquirer.js';
import { CHARGE_EVENT_TYPES } from './charges/index.js';
import { pendingChargeRoutes } from './charges/pending-routes.js';
import { type PaymentServiceProvider, simulatedPsp } from './charges/psp.js';
import { chargeRoutes } from './charges/routes.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { dashboard } from './dashboard/plugin.js';
import { openStore } from './db/connect.js';
import type { Database, VigiaStore } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { migrations } from './db/migrations/index.js';
import { openRequestCounters, type RequestCounters } from './db/rate-limit-counters.js';
import { DISPUTE_EVENT_TYPES } from './disputes/events.js';
import { disputeRoutes } from './disputes/routes.js';
import { ERRORS } from './error-codes.js';
import { errorBody } from './errors.js';
import { fraudRoutes } from './fraud/routes.js';
import { healthRoutes } from './health/routes.js';
import { registerCors } from './http/cors.js';
import { CredentialCache } from './http/credential-cache.js';
import { registerErrorHandling } from './http/errors.js';
import { acceptEmptyJsonBodies } from './http/json-body.js';
import { refuseNulCharacters } from './http/nul.js';
import { registerOpenApi } from './http/openapi.js';
import { requestGate } from './http/request-gate.js';
import { requireRouteDecisions } from './http/route-decisions.js';
import { registerValidation } from './http/validation.js';
import { startWorkerJobs } from './jobs.js';
import { logDestination } from './logging.js';
import { operatorMerchantRoutes } from './merchants/operator-routes.js';
import { operatorPricingRoutes } from './pricing/operator-routes.js';
import { RECEIVABLE_EVENT_TYPES } from './receivables/events.js';
import { receivableRoutes } from './receivables/routes.js';
import { startDeviceGraphPurge } from './risk/device-graph-purge.js';
import { riskRoutes } from './risk/routes.js';
import { sdkAssets } from './sdk/assets.js';
import { sdkRoutes } from './sdk/routes.js';
import { SUBMERCHANT_EVENT_TYPES, submerchantRoutes } from './submerchants/index.js';
import { tokenRoutes } from './tokens/routes.js';
import { walletRoutes } from './wallets/routes.js';
import { createOutbox, type Outbox } from './webhooks/outbox.js';
import { webhooks } from './webhooks/plugin.js';
import { type BankConnector, simulatedBank } from './withdrawals/bank-connector.js';
import { WITHDRAWAL_EVENT_TYPES } from './withdrawals/events.js';
import { withdrawalRoutes } from './withdrawals/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: VigiaStore;
    clock: Clock;
    /** Recently verified keys; call `forgetMerchant` after changing a merchant. */
    credentials: CredentialCache;
    /** Where resources record their events (webhooks/outbox.ts), in the transaction of the change. */
    outbox: Outbox;
    /** The rate-limit counters, which the dashboard counts in too (dashboard/auth.ts). */
    requestCounters: RequestCounters;
    /** The card acquirer charges, captures, cancellations and refunds go through (charges/acquirer.ts). */
    acquirer: CardAcquirer;
    /** The PSP that issues PIX charges and boletos (charges/psp.ts). */
    psp: PaymentServiceProvider;
    /** The bank withdrawals are sent through (withdrawals/bank-connector.ts). */
    bank: BankConnector;
  }
}

export interface AppOptions {
  clock?: Clock;
  /** Where log lines go (tests read them to prove that no secret is logged); stdout by default. */
  logStream?: DestinationStream;
  /** The card acquirer; the simulated one (test cards) by default. */
  acquirer?: CardAcquirer;
  /** The PSP of PIX and boleto; the simulated one by default. */
  psp?: PaymentServiceProvider;
  /** The bank of withdrawals; the simulated one (test bank accounts) by default. */
  bank?: BankConnector;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestSummary(request: FastifyRequest) {
  return {
    method: request.method,
    path: request.url.split('?')[0],
    host: request.host,
    remoteAddress: request.ip,
  };
}

export async function buildApp(config: Config, options: AppOptions = {}) {
  const logger = pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body'],
        censor: '[redacted]',
      },
      // The path without its query string: `?search=` holds buyers' e-mails and tax ids.
      serializers: { req: requestSummary },
    },
    logDestination(config, options.logStream),
  );
  const app = Fastify({
    // A silent service runs without a logger: Fastify then gives no request its own child logger and response
    // listeners (a cost on every request: bench/README.md, "Figures behind code comments"), and nothing would
    // have been written anyway.
    loggerInstance: config.logLevel === 'silent' ? undefined : (logger as FastifyBaseLogger),
    bodyLimit: 1024 * 1024,
    // A client that trickles its request, or holds an idle socket, does not keep a connection forever.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: 2 * config.requestTimeoutMs,
    // A hop count trusts that many proxies nearest the service (Fastify's types take it as a function).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    // Errors raised before routing (a URL that is not valid percent-encoding) get our error shape too.
    frameworkErrors: (error, _request, reply) => {
      const body = errorBody('VALIDATION_ERROR', `The request URL is not valid: ${error.message}.`);
      (reply as unknown as FastifyReply).code(400).send(body);
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const store = openStore<Database>(config.databaseUrl);
  app.decorate('config', config);
  app.decorate('store', store);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('acquirer', options.acquirer ?? simulatedAcquirer(config.cardHashKey));
  app.decorate('psp', options.psp ?? simulatedPsp());
  app.decorate('bank', options.bank ?? simulatedBank());
  app.decorate('credentials', new CredentialCache(app.clock));
  app.decorate('outbox', createOutbox());
  app.decorateRequest('caller', null);
  app.addHook('onClose', async () => store.close());

  await migrateToLatest(store.db, migrations);
  const counters = await openRequestCounters(store, config.rateLimitWindowSeconds);
  app.decorate('requestCounters', counters);

  registerValidation(app);
  registerErrorHandling(app);
  refuseNulCharacters(app);
  // Only JSON bodies are accepted; anything else is a 415.
  app.removeContentTypeParser('text/plain');
  acceptEmptyJsonBodies(app);

  const admit = requestGate({
    lookUp: keyLookup(store.db, app.clock),
    credentials: app.credentials,
    counters,
    publicWriteLimit: config.publicWriteLimit,
  });
  // A callback, not an async hook: most requests pass the gate at once, and a promise would cost each of them.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    let admitted: void | Promise<void>;
    try {
      admitted = admit(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (admitted) admitted.then(() => done(), done);
    else done();
  });
  requireRouteDecisions(app);
  // Before any route: routes with `config.cors` get their preflight route and origin checks.
  registerCors(app);

  await registerOpenApi(app, [...ERRORS.keys()]);
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(accountKeyRoutes);
  await app.register(operatorMerchantRoutes);
  await app.register(submerchantRoutes);
  await app.register(sdkRoutes);
  await app.register(fraudRoutes);
  await app.register(tokenRoutes);
  await app.register(chargeRoutes);
  if (config.runWorker !== false) {
    let stopJobs: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopJobs = startWorkerJobs({
        db: store.db,
        acquirer: app.acquirer,
        bank: app.bank,
        outbox: app.outbox,
        clock: app.clock,
        logger: app.log,
      });
    });
    app.addHook('preClose', async () => stopJobs?.());
  }
  await app.register(disputeRoutes);
  await app.register(pendingChargeRoutes);
  await app.register(riskRoutes);
  await app.register(bankRoutes);
  await app.register(bankAccountRoutes);
  await app.register(operatorPricingRoutes);
  await app.register(receivableRoutes);
  await app.register(walletRoutes);
  await app.register(anticipationRoutes);
  await app.register(operatorAnticipationRoutes);
  await app.register(withdrawalRoutes);
  startDeviceGraphPurge(app);
  await app.register(webhooks, {
    eventTypes: [
      ...CHARGE_EVENT_TYPES,
      ...DISPUTE_EVENT_TYPES,
      ...SUBMERCHANT_EVENT_TYPES,
      ...BANK_ACCOUNT_EVENT_TYPES,
      ...RECEIVABLE_EVENT_TYPES,
      ...ANTICIPATION_EVENT_TYPES,
      ...WITHDRAWAL_EVENT_TYPES,
    ],
  });
  await app.register(sdkAssets);
  await app.register(dashboard);
  return app;
}

export type VigiaApp = Awaited<ReturnType<typeof buildApp>>;

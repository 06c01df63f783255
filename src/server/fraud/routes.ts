import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIGNALS_MAX_BYTES } from '@vigia/sdk/internal';
import type { FastifyRequest } from 'fastify';
import { notFound, validationError } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses } from '../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../http/idempotency.js';
import { FRAUD_ERRORS, signalsRefusalError } from './errors.js';
import { presentFraudSession } from './present.js';
import { startFraudSessionPurge } from './purge.js';
import { readRequestHeaders } from './request-headers.js';
import {
  CreatedFraudSessionSchema,
  CreateFraudSessionBody,
  FraudSessionParams,
  FraudSessionSchema,
  SignalsBody,
  SignalsRecordedSchema,
} from './schemas.js';
import { createFraudSession, getFraudSession, recordFraudSignals } from './service.js';

// Headers are stored as evidence, bounded so that a client cannot make us store 16 KiB per session.
const MAX_HEADER_CHARS = 1024;

function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined ? null : text.slice(0, MAX_HEADER_CHARS);
}

/** The SDK's fraud sessions: created and reported to from the browser, read by the merchant's server. */
export const fraudRoutes: FastifyPluginAsyncTypebox = async (app) => {
  startFraudSessionPurge(app);
  // Behind a proxy that strips or rewrites them, the headers are not the browser's: not recorded, not judged.
  const evidenceOf = (request: FastifyRequest) =>
    app.config.headerEvidence
      ? readRequestHeaders({
          headers: request.headers,
          rawHeaders: request.raw.rawHeaders,
          protocol: request.protocol,
          hostname: request.hostname,
        })
      : null;

  app.post(
    '/v1/fraud/sessions',
    {
      // The stored replay holds the signals token: sealed, like a webhook endpoint's secret.
      ...idempotencyHooks(app, { sealResponses: true }),
      config: { auth: 'browser', rateLimit: 'default', cors: true },
      schema: {
        tags: ['fraud'],
        summary: 'Create a fraud session (browser SDK, public key)',
        description:
          'Records the five browser fields and what the service sees (source IP, User-Agent, Origin). The ' +
          'session lives 30 minutes and is consumed by exactly one charge (`fraud_session_id`). The answer ' +
          "carries the session's challenge (a nonce and engine probes) that the SDK's profiler answers in its " +
          'report. Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        body: CreateFraudSessionBody,
        response: {
          201: dataResponse(CreatedFraudSessionSchema),
          ...errorResponses(400, 401, 403, 413, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { session, signalsToken, challenge } = await createFraudSession(app.store.db, {
        merchantId: merchantOf(request).id,
        declared: {
          ipAddress: body.ip_address,
          type: body.type,
          hostName: body.host_name,
          cookiesAccepted: body.cookies_accepted,
          userAgent: body.user_agent,
        },
        observed: {
          ipAddress: request.ip,
          userAgent: headerValue(request.headers['user-agent']),
          origin: headerValue(request.headers.origin),
        },
        headers: evidenceOf(request),
        now: app.clock(),
      });
      reply.code(201);
      return {
        message: 'Fraud session created.',
        data: {
          sessionId: session.id,
          expires_at: session.expiresAt,
          signals_token: signalsToken,
          challenge,
        },
      };
    },
  );

  app.post(
    '/v1/fraud/sessions/:id/signals',
    {
      // The SDK owns this limit: it trims its report's components to stay under it.
      bodyLimit: SIGNALS_MAX_BYTES,
      config: { auth: 'browser', rateLimit: 'default', cors: true },
      schema: {
        tags: ['fraud'],
        summary: "Report a session's signals once (browser SDK, public key)",
        description:
          'The public IP lookup and the profiler report (visitor id, components, bot verdict), with the ' +
          "session's signals_token. Accepted once per session, while it is open; the body is limited to " +
          `${SIGNALS_MAX_BYTES / 1024} KiB. ` +
          'The answer says the report was recorded; the merchant reads the session with its secret key.',
        params: FraudSessionParams,
        body: SignalsBody,
        response: {
          200: dataResponse(SignalsRecordedSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            409,
            413,
            415,
            429,
            ...codesOf(
              FRAUD_ERRORS,
              'FRAUD_SESSION_EXPIRED',
              'FRAUD_SESSION_ALREADY_USED',
              'FRAUD_SIGNALS_TOKEN_INVALID',
            ),
          ),
        },
      },
    },
    async (request) => {
      const { signals_token: signalsToken, ...report } = request.body;
      if (report.ip_lookup.status === 'ok' && report.ip_lookup.ip_address === undefined) {
        throw validationError('The request body is invalid: see error.details.', [
          {
            field: 'ip_lookup.ip_address',
            message: 'ip_lookup.ip_address is required when ip_lookup.status is "ok".',
          },
        ]);
      }
      const now = app.clock();
      const result = await recordFraudSignals(app.store.db, {
        merchantId: merchantOf(request).id,
        sessionId: request.params.id,
        signalsToken,
        report,
        observed: { ipAddress: request.ip, userAgent: headerValue(request.headers['user-agent']) },
        headers: evidenceOf(request),
        now,
      });
      if (!result.ok) throw signalsRefusalError(result.reason);
      return {
        message: 'Signals recorded.',
        data: { id: result.sessionId, status: 'recorded' as const, received_at: now.toISOString() },
      };
    },
  );

  app.get(
    '/v1/fraud/sessions/:id',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['fraud'],
        summary: 'Read a fraud session: status, collected data and signals (secret key)',
        params: FraudSessionParams,
        response: { 200: dataResponse(FraudSessionSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const session = await getFraudSession(app.store.db, merchantOf(request).id, request.params.id);
      if (!session) throw notFound('Fraud session');
      return { message: 'Fraud session retrieved.', data: presentFraudSession(session, app.clock()) };
    },
  );
};

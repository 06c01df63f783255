import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { GENERAL_ERRORS, notFound } from '../errors.js';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import { labelKeyer } from '../risk/labels.js';
import { chargeNotDisputable, DISPUTES_ERRORS, simulatedNetworkOnly } from './errors.js';

const TEST_MODE_ONLY = codesOf(GENERAL_ERRORS, 'TEST_MODE_ONLY');

import { suggestedEvidence } from './evidence.js';
import { simulatedVerdict } from './network.js';
import { presentDispute } from './present.js';
import { DisputeListQuery, DisputeSchema, EvidenceBody, TestDisputeBody } from './schemas.js';
import { closeDispute, getDispute, listDisputes, receiveChargeback, submitEvidence } from './service.js';

const Params = Type.Object({ id: Id });

/** Chargebacks of the merchant's charges: read them, answer them; in test mode, open and decide them. */
export const disputeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);
  const keyer = labelKeyer(app.config.cardHashKey);

  app.get(
    '/v1/disputes',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['disputes'],
        summary: 'List disputes (status; search over the dispute and charge ids)',
        querystring: DisputeListQuery,
        response: { 200: listResponse(DisputeSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { disputes, pagination } = await listDisputes(
        app.store.db,
        merchantOf(request).id,
        toListFilters(request.query),
      );
      return { message: 'Disputes retrieved.', data: disputes.map((d) => presentDispute(d)), pagination };
    },
  );

  app.get(
    '/v1/disputes/:id',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['disputes'],
        summary: "Read a dispute, with the charge's fraud evidence ready to submit (suggested_evidence)",
        params: Params,
        response: { 200: dataResponse(DisputeSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const dispute = await getDispute(app.store.db, merchantOf(request).id, request.params.id);
      if (!dispute) throw notFound('Dispute');
      const suggested = await suggestedEvidence(app.store.db, dispute);
      return { message: 'Dispute retrieved.', data: presentDispute(dispute, suggested) };
    },
  );

  app.post(
    '/v1/disputes/:id/evidence',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['disputes'],
        summary: 'Submit your evidence (once, before evidence_due_by): the dispute goes under_review',
        description:
          'A second submission is 409 INVALID_STATE; after evidence_due_by, 422 DISPUTE_EVIDENCE_DEADLINE_PASSED. ' +
          'Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        params: Params,
        body: EvidenceBody,
        response: {
          200: dataResponse(DisputeSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            409,
            415,
            429,
            ...codesOf(DISPUTES_ERRORS, 'DISPUTE_EVIDENCE_DEADLINE_PASSED'),
            ...IDEMPOTENCY_CODES,
          ),
        },
      },
    },
    async (request) => {
      const dispute = await submitEvidence(app.store.db, {
        merchantId: merchantOf(request).id,
        disputeId: request.params.id,
        evidence: { text: request.body.text.trim(), documentUrls: request.body.document_urls ?? [] },
        outbox: app.outbox,
        now: app.clock(),
      });
      return { message: 'Evidence submitted: the network is reviewing it.', data: presentDispute(dispute) };
    },
  );

  app.post(
    '/v1/test/charges/:id/dispute',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['test mode'],
        summary: 'Test mode: the simulated acquirer reports a chargeback of a captured charge',
        params: Params,
        body: TestDisputeBody,
        response: {
          201: dataResponse(DisputeSchema),
          ...errorResponses(
            400,
            401,
            404,
            409,
            415,
            429,
            ...TEST_MODE_ONLY,
            ...codesOf(DISPUTES_ERRORS, 'CHARGE_NOT_DISPUTABLE'),
          ),
        },
      },
    },
    async (request, reply) => {
      if (!callerInTestMode(request)) throw simulatedNetworkOnly();
      const charge = await app.store.db
        .selectFrom('charges')
        .select(['status', 'acquirer_reference'])
        .where('id', '=', request.params.id)
        .where('merchant_id', '=', merchantOf(request).id)
        .executeTakeFirst();
      if (!charge) throw notFound('Charge');
      // The acquirer knows a charge by its authorization: one it never authorized was never charged.
      if (!charge.acquirer_reference) throw chargeNotDisputable(charge.status);
      const dispute = await receiveChargeback(app.store.db, {
        authorizationId: charge.acquirer_reference,
        reason: request.body.reason,
        labelKeyer: keyer,
        outbox: app.outbox,
        now: app.clock(),
      });
      return reply
        .status(201)
        .send({ message: 'Dispute opened (test mode).', data: presentDispute(dispute) });
    },
  );

  app.post(
    '/v1/test/disputes/:id/close',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['test mode'],
        summary:
          'Test mode: the simulated network decides: evidence containing "winning_evidence" wins, anything else loses',
        params: Params,
        response: {
          200: dataResponse(DisputeSchema),
          ...errorResponses(400, 401, 404, 409, 429, ...TEST_MODE_ONLY),
        },
      },
    },
    async (request) => {
      if (!callerInTestMode(request)) throw simulatedNetworkOnly();
      const dispute = await closeDispute(app.store.db, {
        merchantId: merchantOf(request).id,
        disputeId: request.params.id,
        outcome: (current) => simulatedVerdict(current.evidence?.text ?? null),
        outbox: app.outbox,
        now: app.clock(),
      });
      return { message: `Dispute ${dispute.status} (test mode).`, data: presentDispute(dispute) };
    },
  );
};

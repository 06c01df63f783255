import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { DISPUTE_REASONS, DISPUTE_STATUSES } from './table.js';

const Reason = Type.Union(
  DISPUTE_REASONS.map((reason) => Type.Literal(reason)),
  { description: `Why the buyer's bank disputes the charge: ${DISPUTE_REASONS.join(', ')}.` },
);

const SuggestedEvidenceSchema = Type.Object(
  {
    text: Type.String({
      description: 'A paragraph stating what the checkout showed; submit it as is or edit it.',
    }),
    device: Type.Union([
      Type.Object({
        visitor_id: Type.Union([Type.String(), Type.Null()]),
        user_agent: Type.Union([Type.String(), Type.Null()]),
        browser: Type.Union([Type.String(), Type.Null()]),
        os: Type.Union([Type.String(), Type.Null()]),
        type: Type.String(),
      }),
      Type.Null(),
    ]),
    ip_address: Type.Union([Type.String(), Type.Null()]),
    fraud_analysis: Type.Object({
      status: Type.String(),
      score: Type.Integer(),
      reasons: Type.Array(Type.String(), { description: "The charge's reason codes (docs/charges.md)." }),
    }),
    review: Type.Union([
      Type.Object({
        decision: Type.Union([Type.String(), Type.Null()]),
        closed_by: Type.Union([Type.String(), Type.Null()]),
        closed_at: Type.Union([Timestamp, Type.Null()]),
      }),
      Type.Null(),
    ]),
  },
  { description: "The charge's fraud session evidence, ready to submit (GET /v1/disputes/:id only)." },
);

export const DisputeSchema = Type.Object(
  {
    id: Id,
    charge_id: Id,
    amount: Type.Integer({ description: 'Minor units (centavos) the buyer’s bank took back.' }),
    currency: Type.Literal('BRL'),
    reason: Reason,
    network_reason_code: Type.String({ description: 'The network’s code: Visa 10.4, Mastercard 4837, …' }),
    status: Type.Union(
      DISPUTE_STATUSES.map((status) => Type.Literal(status)),
      {
        description: 'needs_response → under_review (evidence submitted) → won | lost.',
      },
    ),
    evidence_due_by: Timestamp,
    evidence: Type.Union([
      Type.Object({ text: Type.String(), document_urls: Type.Array(Type.String()) }),
      Type.Null(),
    ]),
    evidence_submitted_at: Type.Union([Timestamp, Type.Null()]),
    closed_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    suggested_evidence: Type.Optional(Type.Union([SuggestedEvidenceSchema, Type.Null()])),
  },
  { description: 'A chargeback of a captured charge.' },
);

export const DisputeListQuery = listQuerySchema(DISPUTE_STATUSES);

export const EvidenceBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 20_000,
      pattern: '\\S',
      description:
        'Your answer: what shows the buyer made the purchase (suggested_evidence.text is a start).',
    }),
    document_urls: Type.Optional(
      Type.Array(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2048 }), {
        maxItems: 10,
        uniqueItems: true,
        description: 'Receipts, delivery proofs, conversations: HTTPS links the network can fetch.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TestDisputeBody = Type.Object({ reason: Reason }, { additionalProperties: false });

import type { Kysely } from 'kysely';
import { getCharge } from '../charges/service.js';
import type { Database } from '../db/database.js';
import { getFraudSession } from '../fraud/service.js';
import type { Dispute } from './service.js';

const money = (centavos: number) => `R$ ${(centavos / 100).toFixed(2).replace('.', ',')}`;

/**
 * What the charge's fraud session saw, offered as ready-made evidence: the device (visitor id and browser), the
 * IP the checkout came from, the analysis and the review, with a paragraph that states them. The merchant
 * submits it as is, edits it or writes its own (POST /v1/disputes/:id/evidence).
 */
export async function suggestedEvidence(db: Kysely<Database>, dispute: Dispute) {
  const charge = await getCharge(db, dispute.merchantId, dispute.chargeId);
  if (!charge) return null;
  const session = charge.fraudSessionId
    ? await getFraudSession(db, dispute.merchantId, charge.fraudSessionId)
    : null;
  const reading = session?.parsed.header ?? session?.parsed.declared ?? null;
  const device = session && {
    visitor_id: session.signals?.visitorId ?? null,
    user_agent: session.observed.userAgent,
    browser: reading?.browser ?? null,
    os: reading?.os ?? null,
    type: reading?.device ?? 'desktop',
  };
  const ipAddress = session?.observed.ipAddress ?? null;
  const { fraudAnalysis, review } = charge;
  const sentences = [
    `Charge ${charge.id} of ${money(charge.amount)} was paid on ${charge.createdAt} by ${charge.customer.name} ` +
      `(${charge.customer.email}) ${charge.card ? `with a ${charge.card.brand} card ending in ${charge.card.last4}` : `by ${charge.paymentMethod}`}.`,
    device
      ? `The checkout ran in ${device.browser ?? 'a browser'}${device.os ? ` on ${device.os}` : ''}` +
        `${device.visitor_id ? `, device id ${device.visitor_id}` : ''}, from IP address ${ipAddress}.`
      : 'The checkout sent no device profile.',
    `The fraud analysis scored it ${fraudAnalysis.score}/100 (${fraudAnalysis.status}` +
      `${fraudAnalysis.reasons.length ? `: ${fraudAnalysis.reasons.join(', ')}` : ''}).`,
    ...(review?.decision === 'approve' && review.closedBy !== 'timeout'
      ? [`It was reviewed and approved by the merchant on ${review.closedAt}.`]
      : []),
  ];
  return {
    text: sentences.join(' '),
    device,
    ip_address: ipAddress,
    fraud_analysis: fraudAnalysis,
    review: review && { decision: review.decision, closed_by: review.closedBy, closed_at: review.closedAt },
  };
}

export type SuggestedEvidence = NonNullable<Awaited<ReturnType<typeof suggestedEvidence>>>;

import type { SuggestedEvidence } from './evidence.js';
import type { Dispute } from './service.js';

/** A dispute as the interface shows it; `suggested_evidence` only where it was read (GET /v1/disputes/:id). */
export function presentDispute(dispute: Dispute, suggested?: SuggestedEvidence | null) {
  return {
    id: dispute.id,
    charge_id: dispute.chargeId,
    amount: dispute.amount,
    currency: 'BRL' as const,
    reason: dispute.reason,
    network_reason_code: dispute.networkReasonCode,
    status: dispute.status,
    evidence_due_by: dispute.evidenceDueBy,
    evidence: dispute.evidence && {
      text: dispute.evidence.text,
      document_urls: dispute.evidence.documentUrls,
    },
    evidence_submitted_at: dispute.evidenceSubmittedAt,
    closed_at: dispute.closedAt,
    created_at: dispute.createdAt,
    updated_at: dispute.updatedAt,
    ...(suggested !== undefined && { suggested_evidence: suggested }),
  };
}

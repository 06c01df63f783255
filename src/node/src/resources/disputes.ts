import { type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type { Dispute, DisputeEvidenceParams, DisputeListParams } from '../types.js';

/** Chargebacks of your charges: read them (with the fraud session's suggested evidence) and answer them, once. */
export class Disputes {
  constructor(private readonly transport: Transport) {}

  /** With `suggested_evidence`: the checkout's device, IP and analysis, ready to submit. */
  retrieve(id: string): Promise<Dispute> {
    return this.transport.data({ method: 'GET', path: `/v1/disputes/${segment(id)}` });
  }

  list(params: DisputeListParams = {}): ListRequest<Dispute, DisputeListParams> {
    return new ListRequest((query) => this.transport.page<Dispute>('/v1/disputes', query), params);
  }

  /**
   * Submits your evidence, once, before `evidence_due_by`: the dispute moves to `under_review`. A second
   * submission is 409 `INVALID_STATE`, a late one 422 `DISPUTE_EVIDENCE_DEADLINE_PASSED`.
   */
  submitEvidence(id: string, params: DisputeEvidenceParams, options: RequestOptions = {}): Promise<Dispute> {
    return this.transport.create(`/v1/disputes/${segment(id)}/evidence`, params, options);
  }
}

import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import { fromJson, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { ApiError, notFound } from '../errors.js';
import { bookableOf, bookChargeback } from '../receivables/book.js';
import { type LabelKeyer, labelCharge } from '../risk/labels.js';
import type { Outbox } from '../webhooks/outbox.js';
import {
  chargeAlreadyDisputed,
  chargeNotDisputable,
  disputeClosed,
  evidenceAlreadySubmitted,
  evidenceDeadlinePassed,
} from './errors.js';
import type { DisputeEventType } from './events.js';
import { EVIDENCE_DAYS, networkReasonCode } from './network.js';
import { presentDispute } from './present.js';
import type { DisputeReason, DisputeStatus, DisputesTable } from './table.js';

export interface DisputeEvidence {
  text: string;
  documentUrls: string[];
}

export interface Dispute {
  id: string;
  merchantId: string;
  chargeId: string;
  amount: number;
  reason: DisputeReason;
  networkReasonCode: string;
  status: DisputeStatus;
  evidenceDueBy: string;
  evidence: DisputeEvidence | null;
  evidenceSubmittedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toDispute(row: Selectable<DisputesTable>): Dispute {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    chargeId: row.charge_id,
    amount: Number(row.amount),
    reason: row.reason,
    networkReasonCode: row.network_reason_code,
    status: row.status,
    evidenceDueBy: row.evidence_due_by,
    evidence: fromJson<DisputeEvidence | null>(row.evidence, null),
    evidenceSubmittedAt: row.evidence_submitted_at,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface Deps {
  outbox: Outbox;
  now: Date;
}

async function recordDisputeEvent(
  trx: Kysely<Database>,
  type: DisputeEventType,
  dispute: Dispute,
  deps: Deps,
) {
  await deps.outbox.recordEvent(trx, {
    merchantId: dispute.merchantId,
    type,
    data: presentDispute(dispute),
    now: deps.now,
  });
}

/**
 * The acquirer seam's report of a chargeback (charges/acquirer.ts names the calls the service makes; this is the
 * one the acquirer makes): the charge is found by the authorization the acquirer knows it by. Opens the dispute
 * and labels the charge, `fraud` for a fraud reason, `not_fraud` for the others (the cardholder made the purchase
 * and disputes the goods or the billing). A live acquirer's notification handler calls this; the simulated
 * acquirer's is the test route POST /v1/test/charges/:id/dispute.
 */
export async function receiveChargeback(
  db: Kysely<Database>,
  notice: { authorizationId: string; reason: DisputeReason; labelKeyer: LabelKeyer } & Deps,
): Promise<Dispute> {
  const timestamp = notice.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const charge = await trx
      .selectFrom('charges')
      .select(['id', 'merchant_id', 'amount', 'status', 'card_brand'])
      .where('acquirer_reference', '=', notice.authorizationId)
      .executeTakeFirst();
    // Only a card charge has an authorization, and so a brand, to be disputed through.
    if (!charge || charge.card_brand === null) throw notFound('Charge');
    if (charge.status !== 'captured') throw chargeNotDisputable(charge.status);
    const existing = await trx
      .selectFrom('disputes')
      .select('id')
      .where('charge_id', '=', charge.id)
      .executeTakeFirst();
    if (existing) throw chargeAlreadyDisputed();
    const row: DisputesTable = {
      id: newId(),
      merchant_id: charge.merchant_id,
      charge_id: charge.id,
      amount: Number(charge.amount),
      reason: notice.reason,
      network_reason_code: networkReasonCode(charge.card_brand, notice.reason),
      status: 'needs_response',
      evidence_due_by: new Date(notice.now.getTime() + EVIDENCE_DAYS * 86_400_000).toISOString(),
      evidence: null,
      evidence_submitted_at: null,
      closed_at: null,
      created_at: timestamp,
      updated_at: timestamp,
    };
    await trx.insertInto('disputes').values(row).execute();
    await labelCharge(trx, {
      chargeId: charge.id,
      label: notice.reason === 'fraud' ? 'fraud' : 'not_fraud',
      source: 'dispute',
      keyer: notice.labelKeyer,
      now: notice.now,
    });
    const dispute = toDispute(row);
    await recordDisputeEvent(trx, 'dispute.created', dispute, notice);
    return dispute;
  });
}

export async function getDispute(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<Dispute | null> {
  const row = await db
    .selectFrom('disputes')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row ? toDispute(row) : null;
}

export async function listDisputes(db: Kysely<Database>, merchantId: string, filters: ListFilters) {
  const { rows, pagination } = await paginate(
    db.selectFrom('disputes').selectAll().where('merchant_id', '=', merchantId),
    filters,
    { createdAt: 'created_at', id: 'id', status: 'status', search: ['id', 'charge_id'] },
  );
  return { disputes: rows.map(toDispute), pagination };
}

/**
 * The merchant's answer, once, before the deadline: the dispute moves to under_review. One conditional UPDATE, so
 * two answers racing each other cannot both be taken.
 */
export async function submitEvidence(
  db: Kysely<Database>,
  input: { merchantId: string; disputeId: string; evidence: DisputeEvidence } & Deps,
): Promise<Dispute> {
  const timestamp = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('disputes')
      .set({
        status: 'under_review',
        evidence: toJson(input.evidence),
        evidence_submitted_at: timestamp,
        updated_at: timestamp,
      })
      .where('id', '=', input.disputeId)
      .where('merchant_id', '=', input.merchantId)
      .where('status', '=', 'needs_response')
      .where('evidence_due_by', '>', timestamp)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const current = await getDispute(trx, input.merchantId, input.disputeId);
      if (!current) throw notFound('Dispute');
      if (current.status === 'under_review') throw evidenceAlreadySubmitted();
      if (current.status !== 'needs_response') throw disputeClosed(current.status);
      throw evidenceDeadlinePassed(current.evidenceDueBy);
    }
    const dispute = toDispute(row);
    await recordDisputeEvent(trx, 'dispute.updated', dispute, input);
    return dispute;
  });
}

/**
 * The network's decision on a dispute (reported by the acquirer; the simulated network's, network.ts): won or
 * lost, once. A lost dispute takes the amount back from whoever is liable for it, on the ledger, in the same
 * transaction as the decision.
 */
export async function closeDispute(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    disputeId: string;
    outcome: (dispute: Dispute) => 'won' | 'lost';
  } & Deps,
): Promise<Dispute> {
  const timestamp = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const current = await getDispute(trx, input.merchantId, input.disputeId);
    if (!current) throw notFound('Dispute');
    if (current.status === 'won' || current.status === 'lost') throw disputeClosed(current.status);
    const status = input.outcome(current);
    const row = await trx
      .updateTable('disputes')
      .set({ status, closed_at: timestamp, updated_at: timestamp })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw disputeClosed('decided meanwhile');
    const dispute = toDispute(row);
    if (status === 'lost') {
      const charge = await trx
        .selectFrom('charges')
        .selectAll()
        .where('id', '=', dispute.chargeId)
        .executeTakeFirstOrThrow();
      await bookChargeback(trx, { charge: bookableOf(charge), now: input.now });
    }
    await recordDisputeEvent(trx, 'dispute.closed', dispute, input);
    return dispute;
  });
}

/**
 * Disputes whose evidence deadline passed unanswered are lost: the network rules for the cardholder when the
 * merchant says nothing. Run by the worker's jobs; at most `batch` per run, the oldest deadline first. A dispute
 * answered or decided meanwhile is left as it is (closeDispute's conditional UPDATE), and an answer can no longer
 * arrive once the deadline has passed (submitEvidence's condition), so the two never both win.
 */
export async function closeUnansweredDisputes(
  db: Kysely<Database>,
  deps: Deps & { batch?: number },
): Promise<number> {
  const due = await db
    .selectFrom('disputes')
    .select(['id', 'merchant_id'])
    .where('status', '=', 'needs_response')
    .where('evidence_due_by', '<=', deps.now.toISOString())
    .orderBy('evidence_due_by')
    .limit(deps.batch ?? 100)
    .execute();
  let closed = 0;
  for (const row of due) {
    try {
      await closeDispute(db, {
        ...deps,
        merchantId: row.merchant_id,
        disputeId: row.id,
        outcome: () => 'lost',
      });
      closed += 1;
    } catch (error) {
      // Another worker closed it first: that is the one outcome, nothing to do here.
      if (!(error instanceof ApiError && error.code === 'INVALID_STATE')) throw error;
    }
  }
  return closed;
}

import { invalidState, notFound } from '../../errors.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { presentDocument } from '../documents/present.js';
import { type DocumentRow, documentFromRow, type SubmerchantDocument } from '../documents/service.js';
import { representativeRequired } from '../errors.js';
import type { SubmerchantEventType } from '../events.js';
import { presentSubmerchant } from '../present.js';
import { type Representative, representativeFromRow } from '../representatives/service.js';
import { effectiveDocumentStatus } from '../requirements.js';
import type { SubmerchantStatus } from '../schemas.js';
import { loadStatusHistories, recordStatusChange } from '../status-history.js';
import { presentStatusChange } from '../status-history-present.js';
import {
  type Actor,
  type Db,
  emitEvent,
  emitSubmerchantUpdated,
  findAttached,
  lockSubmerchant,
  type Scope,
  type Submerchant,
  type SubmerchantRow,
  submerchantFromRow,
} from '../store.js';

/**
 * The submerchant lifecycle:
 *   pending --submit-for-review (merchant)--> pending_review --approve (operator)--> active
 *                                             pending_review --reject (operator)---> rejected
 *   rejected --request-resubmission (merchant)--> pending
 * Anything else is 409 INVALID_STATE.
 */
interface Transition {
  action: string;
  from: SubmerchantStatus;
  to: SubmerchantStatus;
  event: SubmerchantEventType;
  hint: string;
}

export const TRANSITIONS = {
  submit: {
    action: 'submit for review',
    from: 'pending',
    to: 'pending_review',
    event: 'submerchant.submitted_for_review',
    hint: 'Only a pending submerchant can be submitted for review.',
  },
  approve: {
    action: 'approve',
    from: 'pending_review',
    to: 'active',
    event: 'submerchant.approved',
    hint: 'Only a submerchant in pending_review can be approved.',
  },
  reject: {
    action: 'reject',
    from: 'pending_review',
    to: 'rejected',
    event: 'submerchant.rejected',
    hint: 'Only a submerchant in pending_review can be rejected.',
  },
  requestResubmission: {
    action: 'request resubmission of',
    from: 'rejected',
    to: 'pending',
    event: 'submerchant.resubmission_requested',
    hint: 'Only a rejected submerchant can go back to pending for resubmission.',
  },
} as const satisfies Record<string, Transition>;

async function representativeCount(trx: Db, submerchantId: string): Promise<number> {
  const row = await trx
    .selectFrom('submerchant_representatives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('submerchant_id', '=', submerchantId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function transitionSubmerchant(
  db: Db,
  outbox: Outbox,
  id: string,
  transition: Transition,
  scope: Scope,
  actor: Actor,
  now: Date,
  reason?: string,
): Promise<Submerchant> {
  return db.transaction().execute(async (trx) => {
    const row = await lockSubmerchant(trx, id, scope, now);
    return applyTransition(trx, outbox, row, transition, actor, now, reason);
  });
}

/** One lifecycle move of a locked submerchant, with its history entry and event. */
async function applyTransition(
  trx: Db,
  outbox: Outbox,
  row: SubmerchantRow,
  transition: Transition,
  actor: Actor,
  now: Date,
  reason?: string,
): Promise<Submerchant> {
  const { id } = row;
  const timestamp = now.toISOString();
  if (row.status !== transition.from) {
    throw invalidState(
      `Cannot ${transition.action} this submerchant: it is ${row.status}. ${transition.hint}`,
    );
  }
  if (
    transition.to === 'pending_review' &&
    row.entity_type === 'pj' &&
    (await representativeCount(trx, id)) === 0
  ) {
    throw representativeRequired(
      `A company (pj) needs at least one legal representative before review: add one with POST /v1/submerchants/${id}/legal-representatives.`,
    );
  }
  const result = await trx
    .updateTable('submerchants')
    .set({
      status: transition.to,
      updated_at: timestamp,
      ...(transition.to === 'pending_review' && { submitted_at: timestamp }),
      ...(transition.to === 'active' && { reviewed_at: timestamp, rejection_reason: null }),
      ...(transition.to === 'rejected' && { reviewed_at: timestamp, rejection_reason: reason ?? null }),
    })
    .where('id', '=', id)
    .where('status', '=', transition.from)
    .returningAll()
    .executeTakeFirst();
  // Unreachable while the lock holds; kept so a lost race can never apply a transition twice.
  if (!result)
    throw invalidState(`Cannot ${transition.action} this submerchant: its status changed meanwhile.`);
  // Approving the submerchant approves the representatives it was reviewed with.
  if (transition.to === 'active') {
    await trx
      .updateTable('submerchant_representatives')
      .set({ review_status: 'approved' })
      .where('submerchant_id', '=', id)
      .execute();
  }
  const entry = await recordStatusChange(trx, {
    submerchantId: id,
    subjectType: 'submerchant',
    subjectId: id,
    from: transition.from,
    to: transition.to,
    actor,
    reason,
    now,
  });
  const submerchant = submerchantFromRow(result);
  await emitEvent(
    outbox,
    trx,
    row.merchant_id,
    transition.event,
    { submerchant: presentSubmerchant(submerchant), status_change: presentStatusChange(entry) },
    now,
  );
  return submerchant;
}

export type DocumentAction = 'approve' | 'reject' | 'expire';

const DOCUMENT_ACTIONS: Record<
  DocumentAction,
  { to: 'approved' | 'rejected' | 'expired'; from: readonly string[]; event: SubmerchantEventType }
> = {
  approve: { to: 'approved', from: ['pending'], event: 'document.approved' },
  reject: { to: 'rejected', from: ['pending', 'approved'], event: 'document.rejected' },
  expire: { to: 'expired', from: ['pending', 'approved'], event: 'document.expired' },
};

/** An operator's decision on one current document of a submerchant. */
export async function reviewDocument(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  documentId: string,
  action: DocumentAction,
  actor: Actor & { kind: 'operator' },
  now: Date,
  reason?: string,
) {
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { operator: true }, now);
    const document = await findAttached(trx, 'submerchant_documents', submerchantId, documentId);
    if (!document) throw notFound('Document');
    return applyDocumentDecision(trx, outbox, submerchant, document, action, actor, now, reason);
  });
}

/** A decision on one document of a locked submerchant, with its history entry and event. */
async function applyDocumentDecision(
  trx: Db,
  outbox: Outbox,
  submerchant: SubmerchantRow,
  document: DocumentRow,
  action: DocumentAction,
  actor: Actor,
  now: Date,
  reason?: string,
): Promise<SubmerchantDocument> {
  const rule = DOCUMENT_ACTIONS[action];
  const timestamp = now.toISOString();
  const documentId = document.id;
  if (document.replaced_at !== null) {
    throw invalidState(
      `Cannot ${action} document ${documentId}: it was replaced at ${document.replaced_at} by a newer upload. Review the current document instead.`,
    );
  }
  const status = effectiveDocumentStatus(document, now);
  if (!rule.from.includes(status)) {
    const allowed = rule.from.join(' or ');
    const passed =
      status === 'expired' && document.status !== 'expired'
        ? ` (its expires_at ${document.expires_at} has passed)`
        : '';
    throw invalidState(
      `Cannot ${action} document ${documentId}: it is ${status}${passed}; only a ${allowed} document can be.`,
    );
  }
  const updated = await trx
    .updateTable('submerchant_documents')
    .set({
      status: rule.to,
      reviewed_at: timestamp,
      updated_at: timestamp,
      rejection_reason: action === 'reject' ? (reason ?? null) : document.rejection_reason,
    })
    .where('id', '=', documentId)
    .where('status', '=', document.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw invalidState(`Document ${documentId} changed meanwhile; try again.`);
  await recordStatusChange(trx, {
    submerchantId: submerchant.id,
    subjectType: 'document',
    subjectId: documentId,
    from: status,
    to: rule.to,
    actor,
    reason,
    now,
  });
  const history = (await loadStatusHistories(trx, submerchant.id, [documentId])).get(documentId) ?? [];
  const decided = documentFromRow(updated, history);
  await emitEvent(
    outbox,
    trx,
    submerchant.merchant_id,
    rule.event,
    { document: presentDocument(decided, now) },
    now,
  );
  return decided;
}

/** Marks representatives of a locked submerchant approved (all pending ones, or the one named). */
async function approveRepresentatives(
  trx: Db,
  outbox: Outbox,
  submerchant: SubmerchantRow,
  now: Date,
  representativeId?: string,
): Promise<string[]> {
  let query = trx
    .updateTable('submerchant_representatives')
    .set({ review_status: 'approved' })
    .where('submerchant_id', '=', submerchant.id)
    .where('review_status', '=', 'pending');
  if (representativeId) query = query.where('id', '=', representativeId);
  const approved = (await query.returning('id').execute()).map((row) => row.id);
  for (const id of approved) {
    await emitSubmerchantUpdated(
      outbox,
      trx,
      submerchant.merchant_id,
      submerchant,
      { resource: 'legal_representative', action: 'approved', id },
      now,
    );
  }
  return approved;
}

/** The operator approves a new or changed representative (of an active submerchant, typically). */
export async function approveRepresentative(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  representativeId: string,
  now: Date,
): Promise<Representative> {
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { operator: true }, now);
    const representative = await findAttached(
      trx,
      'submerchant_representatives',
      submerchantId,
      representativeId,
    );
    if (!representative) throw notFound('Legal representative');
    if (representative.review_status !== 'pending') {
      throw invalidState(
        `Legal representative ${representativeId} is already approved; only a new or changed one awaits review.`,
      );
    }
    await approveRepresentatives(trx, outbox, submerchant, now, representativeId);
    return representativeFromRow({ ...representative, review_status: 'approved' });
  });
}

/**
 * Test mode's stand-in for the operator: approves every current pending document and pending representative,
 * then the submerchant itself when it is in review. A pending submerchant must be submitted first (409), as in
 * live mode; an active one gets its pending changes approved.
 */
export async function approveInTestMode(
  db: Db,
  outbox: Outbox,
  id: string,
  actor: Actor & { kind: 'merchant' },
  now: Date,
) {
  return db.transaction().execute(async (trx) => {
    const row = await lockSubmerchant(trx, id, { merchantId: actor.id }, now);
    if (row.status !== 'pending_review' && row.status !== 'active') {
      throw invalidState(
        `Cannot approve this submerchant: it is ${row.status}. Submit it for review first (POST /v1/submerchants/${id}/submit-for-review); an active one gets its pending changes approved.`,
      );
    }
    const documents = await trx
      .selectFrom('submerchant_documents')
      .selectAll()
      .where('submerchant_id', '=', id)
      .where('replaced_at', 'is', null)
      .where('status', '=', 'pending')
      .execute();
    for (const document of documents) {
      if (effectiveDocumentStatus(document, now) === 'pending') {
        await applyDocumentDecision(trx, outbox, row, document, 'approve', actor, now, TEST_MODE_REASON);
      }
    }
    await approveRepresentatives(trx, outbox, row, now);
    if (row.status === 'pending_review') {
      await applyTransition(trx, outbox, row, TRANSITIONS.approve, actor, now, TEST_MODE_REASON);
    }
  });
}

const TEST_MODE_REASON = 'Decided in test mode by the merchant.';

/** Test mode's rejection: pending_review → rejected, with the merchant's reason or a default one. */
export function rejectInTestMode(
  db: Db,
  outbox: Outbox,
  id: string,
  actor: Actor & { kind: 'merchant' },
  now: Date,
  reason: string | undefined,
) {
  return transitionSubmerchant(
    db,
    outbox,
    id,
    TRANSITIONS.reject,
    { merchantId: actor.id },
    actor,
    now,
    reason ?? TEST_MODE_REASON,
  );
}

import { ApiError, businessRule, invalidState, notFound } from '../../errors.js';
import { presentDocument } from '../documents/present.js';
import type { SubmerchantEventType } from '../events.js';
import { presentSubmerchant } from '../present.js';
import { effectiveDocumentStatus } from '../requirements.js';
import type { SubmerchantStatus } from '../schemas.js';
import { loadStatusHistories, recordStatusChange } from '../status-history.js';
import {
  type Actor,
  type Db,
  emitEvent,
  findAttached,
  lockSubmerchant,
  type Scope,
  type SubmerchantRow,
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
  id: string,
  transition: Transition,
  scope: Scope,
  actor: Actor,
  now: Date,
  reason?: string,
): Promise<SubmerchantRow> {
  const timestamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await lockSubmerchant(trx, id, scope, now);
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
      throw businessRule(
        'REPRESENTATIVE_REQUIRED',
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
    await emitEvent(
      trx,
      row.merchant_id,
      transition.event,
      { submerchant: presentSubmerchant(result), status_change: entry },
      now,
    );
    return result;
  });
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
  submerchantId: string,
  documentId: string,
  action: DocumentAction,
  actor: Actor & { kind: 'operator' },
  now: Date,
  reason?: string,
) {
  const rule = DOCUMENT_ACTIONS[action];
  const timestamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { operator: true }, now);
    const document = await findAttached(trx, 'submerchant_documents', submerchantId, documentId);
    if (!document) throw notFound('Document');
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
    if (!updated)
      throw new ApiError(409, 'INVALID_STATE', `Document ${documentId} changed meanwhile; try again.`);
    await recordStatusChange(trx, {
      submerchantId,
      subjectType: 'document',
      subjectId: documentId,
      from: status,
      to: rule.to,
      actor,
      reason,
      now,
    });
    const history = (await loadStatusHistories(trx, submerchantId, [documentId])).get(documentId) ?? [];
    const presented = presentDocument(updated, history, now);
    await emitEvent(trx, submerchant.merchant_id, rule.event, { document: presented }, now);
    return presented;
  });
}

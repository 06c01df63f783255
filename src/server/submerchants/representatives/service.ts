import type { Static } from '@sinclair/typebox';
import { newId } from '../../core/ids.js';
import { taxIdError } from '../../core/tax-id.js';
import { flag } from '../../db/columns.js';
import { type ListFilters, paginate } from '../../db/lists.js';
import { notFound } from '../../errors.js';
import { assertFields, birthDateCheck, notBlank, phoneCheck } from '../fields.js';
import {
  type Actor,
  type Db,
  emitSubmerchantUpdated,
  findAttached,
  lockSubmerchant,
  requireAttached,
  requireSubmerchant,
  type Scope,
} from '../store.js';
import { presentRepresentative, type RepresentativeRow } from './present.js';
import type { RepresentativeBody } from './schemas.js';

export type RepresentativeInput = Static<typeof RepresentativeBody>;

function checkRepresentative(body: RepresentativeInput, now: Date): void {
  const entityType = body.entity_type ?? 'pf';
  const kind = entityType === 'pj' ? 'cnpj' : 'cpf';
  const documentProblem = taxIdError('document', body.document, kind);
  const percentage = body.participation_percentage;
  assertFields([
    notBlank('name', body.name),
    {
      field: 'document',
      failed: documentProblem !== null,
      message: `${documentProblem} A representative of entity_type ${entityType} is identified by a ${kind.toUpperCase()}.`,
    },
    birthDateCheck('birth_date', body.birth_date, now),
    phoneCheck('phone', body.phone),
    notBlank('legal_name', body.legal_name),
    notBlank('mother_name', body.mother_name),
    percentage !== undefined && {
      field: 'participation_percentage',
      failed: Math.abs(Math.round(percentage * 100) - percentage * 100) > 1e-6,
      message: 'participation_percentage takes at most 2 decimal places (e.g. 33.33).',
    },
  ]);
}

/**
 * Creates the representative, or replaces the fields of the one with the same document: the UNIQUE
 * (submerchant_id, document) constraint and ON CONFLICT make concurrent POSTs of one document converge on
 * one record. The row keeps the id it was first inserted with, so a returned id equal to the one we tried to
 * insert means this call created it.
 */
export async function upsertRepresentative(
  db: Db,
  submerchantId: string,
  actor: Actor & { kind: 'merchant' },
  body: RepresentativeInput,
  now: Date,
): Promise<{ representative: RepresentativeRow; created: boolean }> {
  checkRepresentative(body, now);
  const timestamp = now.toISOString();
  const fields = {
    name: body.name,
    entity_type: body.entity_type ?? 'pf',
    legal_name: body.legal_name ?? null,
    birth_date: body.birth_date ?? null,
    mother_name: body.mother_name ?? null,
    email: body.email ?? null,
    phone: body.phone ?? null,
    role: body.role ?? null,
    qualification: body.qualification ?? null,
    participation_hundredths:
      body.participation_percentage === undefined ? null : Math.round(body.participation_percentage * 100),
    is_admin: flag(body.is_admin ?? false),
    updated_at: timestamp,
  };
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    const id = newId();
    const representative = await trx
      .insertInto('submerchant_representatives')
      .values({
        id,
        submerchant_id: submerchantId,
        document: body.document,
        created_at: timestamp,
        ...fields,
      })
      .onConflict((conflict) => conflict.columns(['submerchant_id', 'document']).doUpdateSet(fields))
      .returningAll()
      .executeTakeFirstOrThrow();
    const created = representative.id === id;
    await emitSubmerchantUpdated(
      trx,
      actor.id,
      submerchant,
      { resource: 'legal_representative', action: created ? 'created' : 'updated', id: representative.id },
      now,
    );
    return { representative, created };
  });
}

export async function listRepresentatives(db: Db, submerchantId: string, scope: Scope, filters: ListFilters) {
  await requireSubmerchant(db, submerchantId, scope);
  const { rows, pagination } = await paginate(
    db.selectFrom('submerchant_representatives').selectAll().where('submerchant_id', '=', submerchantId),
    filters,
    { createdAt: 'created_at', id: 'id', search: ['name', 'document', 'email', 'legal_name'] },
  );
  return { representatives: rows.map(presentRepresentative), pagination };
}

export function getRepresentative(db: Db, submerchantId: string, representativeId: string, scope: Scope) {
  return requireAttached(
    db,
    'submerchant_representatives',
    submerchantId,
    representativeId,
    scope,
    'Legal representative',
  );
}

/** Deletes a representative and, in the same transaction, every document (current or replaced) linked to it. */
export async function deleteRepresentative(
  db: Db,
  submerchantId: string,
  representativeId: string,
  actor: Actor & { kind: 'merchant' },
  now: Date,
): Promise<{ deletedDocumentIds: string[] }> {
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    if (!(await findAttached(trx, 'submerchant_representatives', submerchantId, representativeId))) {
      throw notFound('Legal representative');
    }
    const documents = await trx
      .selectFrom('submerchant_documents')
      .select('id')
      .where('legal_representative_id', '=', representativeId)
      .execute();
    const documentIds = documents.map((document) => document.id);
    if (documentIds.length > 0) {
      await trx.deleteFrom('submerchant_status_changes').where('subject_id', 'in', documentIds).execute();
      await trx.deleteFrom('submerchant_documents').where('id', 'in', documentIds).execute();
    }
    await trx.deleteFrom('submerchant_representatives').where('id', '=', representativeId).execute();
    await emitSubmerchantUpdated(
      trx,
      actor.id,
      submerchant,
      {
        resource: 'legal_representative',
        action: 'deleted',
        id: representativeId,
        deleted_document_ids: documentIds,
      },
      now,
    );
    return { deletedDocumentIds: documentIds };
  });
}

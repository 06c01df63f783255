import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { newId } from '../../core/ids.js';
import { taxIdError } from '../../core/tax-id.js';
import { flag, readFlag } from '../../db/columns.js';
import { type ListFilters, paginate } from '../../db/lists.js';
import { notFound } from '../../errors.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { archiveDocuments, archiveRepresentative } from '../archive/service.js';
import { representativeRequired, representativesOnlyForCompanies } from '../errors.js';
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
  type SubmerchantRow,
} from '../store.js';
import type { SubmerchantRepresentativesTable } from '../table.js';
import type { RepresentativeBody } from './schemas.js';

export type RepresentativeRow = Selectable<SubmerchantRepresentativesTable>;

/** A legal representative (partner, administrator) of a company submerchant. */
export interface Representative {
  id: string;
  submerchantId: string;
  name: string;
  /** CPF or CNPJ, digits only. */
  document: string;
  entityType: 'pf' | 'pj';
  legalName: string | null;
  birthDate: string | null;
  motherName: string | null;
  email: string | null;
  phone: string | null;
  role: string | null;
  qualification: string | null;
  participationPercentage: number | null;
  isAdmin: boolean;
  reviewStatus: 'pending' | 'approved';
  createdAt: string;
  updatedAt: string;
}

export function representativeFromRow(row: RepresentativeRow): Representative {
  return {
    id: row.id,
    submerchantId: row.submerchant_id,
    name: row.name,
    document: row.document,
    entityType: row.entity_type as Representative['entityType'],
    legalName: row.legal_name,
    birthDate: row.birth_date,
    motherName: row.mother_name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    qualification: row.qualification,
    participationPercentage:
      row.participation_hundredths === null ? null : Number(row.participation_hundredths) / 100,
    isAdmin: readFlag(row.is_admin),
    reviewStatus: row.review_status as Representative['reviewStatus'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type RepresentativeInput = Static<typeof RepresentativeBody>;

/** The record's identifying and person fields as they will be stored, for the rules that span fields. */
interface CheckedRepresentative {
  name: string;
  document: string;
  entity_type: string;
  legal_name?: string | null;
  birth_date?: string | null;
  mother_name?: string | null;
  phone?: string | null;
  participation_percentage?: number;
}

function checkRepresentative(values: CheckedRepresentative, now: Date): void {
  const kind = values.entity_type === 'pj' ? 'cnpj' : 'cpf';
  const documentProblem = taxIdError('document', values.document, kind);
  const percentage = values.participation_percentage;
  assertFields([
    notBlank('name', values.name),
    {
      field: 'document',
      failed: documentProblem !== null,
      message: `${documentProblem} A representative of entity_type ${values.entity_type} is identified by a ${kind.toUpperCase()}.`,
    },
    birthDateCheck('birth_date', values.birth_date, now),
    phoneCheck('phone', values.phone),
    notBlank('legal_name', values.legal_name),
    notBlank('mother_name', values.mother_name),
    percentage !== undefined && {
      field: 'participation_percentage',
      failed: Math.abs(Math.round(percentage * 100) - percentage * 100) > 1e-6,
      message: 'participation_percentage takes at most 2 decimal places (e.g. 33.33).',
    },
  ]);
}

/** The columns a body sets: only the fields it sends, so an update keeps whatever it leaves out. */
function sentFields(body: RepresentativeInput) {
  const fields = {
    name: body.name,
    entity_type: body.entity_type,
    legal_name: body.legal_name,
    birth_date: body.birth_date,
    mother_name: body.mother_name,
    email: body.email,
    phone: body.phone,
    role: body.role,
    qualification: body.qualification,
    participation_hundredths:
      body.participation_percentage === undefined
        ? undefined
        : Math.round(body.participation_percentage * 100),
    is_admin: body.is_admin === undefined ? undefined : flag(body.is_admin),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<
    Omit<RepresentativeRow, 'id' | 'submerchant_id' | 'document' | 'created_at' | 'updated_at'>
  >;
}

const changesSomething = (existing: RepresentativeRow, fields: ReturnType<typeof sentFields>) =>
  Object.entries(fields).some(([column, value]) => existing[column as keyof RepresentativeRow] !== value);

/**
 * Creates the representative, or updates the one with the same document: the fields sent change, the others
 * keep their values. A change (or a new representative) waits for review again (`review_status: pending`);
 * posting the same values again changes nothing. The submerchant's lock serialises POSTs of one submerchant, and
 * the UNIQUE (submerchant_id, document) constraint with ON CONFLICT backs it up: the row keeps the id it was
 * first inserted with, so a returned id equal to the one we tried to insert means this call created it.
 */
export async function upsertRepresentative(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  actor: Actor & { kind: 'merchant' },
  body: RepresentativeInput,
  now: Date,
): Promise<{ representative: Representative; created: boolean }> {
  const timestamp = now.toISOString();
  const fields = sentFields(body);
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    if (submerchant.entity_type === 'pf') throw representativesOnlyForCompanies(submerchantId);
    const existing = await trx
      .selectFrom('submerchant_representatives')
      .selectAll()
      .where('submerchant_id', '=', submerchantId)
      .where('document', '=', body.document)
      .executeTakeFirst();
    const stored = existing ? representativeFromRow(existing) : undefined;
    checkRepresentative(
      {
        legal_name: stored?.legalName,
        birth_date: stored?.birthDate,
        mother_name: stored?.motherName,
        phone: stored?.phone,
        ...body,
        entity_type: body.entity_type ?? stored?.entityType ?? 'pf',
        participation_percentage:
          body.participation_percentage ?? stored?.participationPercentage ?? undefined,
      },
      now,
    );
    if (existing && !changesSomething(existing, fields)) {
      return { representative: representativeFromRow(existing), created: false };
    }
    const id = newId();
    const changed = { ...fields, review_status: 'pending', updated_at: timestamp };
    const representative = await trx
      .insertInto('submerchant_representatives')
      .values({
        id,
        submerchant_id: submerchantId,
        document: body.document,
        name: body.name,
        entity_type: 'pf',
        is_admin: 0,
        created_at: timestamp,
        ...changed,
      })
      .onConflict((conflict) => conflict.columns(['submerchant_id', 'document']).doUpdateSet(changed))
      .returningAll()
      .executeTakeFirstOrThrow();
    const created = representative.id === id;
    await emitSubmerchantUpdated(
      outbox,
      trx,
      actor.id,
      submerchant,
      { resource: 'legal_representative', action: created ? 'created' : 'updated', id: representative.id },
      now,
    );
    return { representative: representativeFromRow(representative), created };
  });
}

export async function listRepresentatives(db: Db, submerchantId: string, scope: Scope, filters: ListFilters) {
  await requireSubmerchant(db, submerchantId, scope);
  const { rows, pagination } = await paginate(
    db.selectFrom('submerchant_representatives').selectAll().where('submerchant_id', '=', submerchantId),
    filters,
    { createdAt: 'created_at', id: 'id', search: ['name', 'document', 'email', 'legal_name'] },
  );
  return { representatives: rows.map(representativeFromRow), pagination };
}

export async function getRepresentative(
  db: Db,
  submerchantId: string,
  representativeId: string,
  scope: Scope,
): Promise<Representative> {
  return representativeFromRow(
    await requireAttached(
      db,
      'submerchant_representatives',
      submerchantId,
      representativeId,
      scope,
      'Legal representative',
    ),
  );
}

/**
 * A company in review or active was accepted (or is being reviewed) with its representatives: it cannot drop to
 * none, the rule submit-for-review enforces. Called under the submerchant's lock.
 */
async function keepOneRepresentative(trx: Db, submerchant: SubmerchantRow): Promise<void> {
  if (submerchant.entity_type !== 'pj' || !['active', 'pending_review'].includes(submerchant.status)) return;
  const { count } = await trx
    .selectFrom('submerchant_representatives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('submerchant_id', '=', submerchant.id)
    .executeTakeFirstOrThrow();
  if (Number(count) <= 1) {
    throw representativeRequired(
      `Submerchant ${submerchant.id} is ${submerchant.status} and this is its only legal representative: a company (pj) cannot drop to none. Add the new representative first, then delete this one.`,
    );
  }
}

/**
 * Deletes a representative and, in the same transaction, every document (current or replaced) linked to it. The
 * merchant no longer sees them; they move to the archive with their review history (the operator's audit trail).
 */
export async function deleteRepresentative(
  db: Db,
  outbox: Outbox,
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
    await keepOneRepresentative(trx, submerchant);
    const documents = await trx
      .selectFrom('submerchant_documents')
      .select('id')
      .where('legal_representative_id', '=', representativeId)
      .execute();
    const documentIds = documents.map((document) => document.id);
    await archiveDocuments(trx, submerchantId, documentIds, { actor, now });
    await archiveRepresentative(trx, submerchantId, representativeId, { actor, now });
    await emitSubmerchantUpdated(
      outbox,
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

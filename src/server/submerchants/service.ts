import type { Static } from '@sinclair/typebox';
import { newId } from '../core/ids.js';
import { taxIdError } from '../core/tax-id.js';
import { toJson } from '../db/columns.js';
import { isUniqueViolation } from '../db/errors.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { type ApiError, businessRule, invalidState } from '../errors.js';
import type { Outbox } from '../webhooks/outbox.js';
import { type Address, addressFromRow } from './addresses/service.js';
import { documentFromRow, type SubmerchantDocument } from './documents/service.js';
import { representativesOnlyForCompanies } from './errors.js';
import { assertFields, birthDateCheck, type FieldCheck, notBlank, phoneCheck } from './fields.js';
import { cnaeDigits, mccForCnae } from './mcc.js';
import { presentSubmerchant } from './present.js';
import { readSubmerchant } from './read-query.js';
import { type Representative, representativeFromRow } from './representatives/service.js';
import { computeRequirements, type Requirements } from './requirements.js';
import type { SubmerchantCreateBody, SubmerchantPatchBody } from './schemas.js';
import { recordStatusChange, type StatusHistoryEntry } from './status-history.js';
import {
  type Actor,
  type Db,
  emitEvent,
  emitSubmerchantUpdated,
  lockSubmerchant,
  type Scope,
  type StoredCnae,
  type Submerchant,
  submerchantFromRow,
} from './store.js';

export type SubmerchantCreate = Static<typeof SubmerchantCreateBody>;
export type SubmerchantPatch = Static<typeof SubmerchantPatchBody>;

/** The fields whose rules depend on one another, checked on the record as it will be stored. */
interface CheckedFields {
  entity_type: string;
  tax_id: string;
  trade_name: string;
  legal_name: string;
  phone: string;
  birth_date?: string | null;
  mother_name?: string | null;
  mcc?: string | null;
  cnaes: readonly { code: string; is_primary: boolean }[];
}

function checkSubmerchant(values: CheckedFields, now: Date): void {
  const isPerson = values.entity_type === 'pf';
  const taxIdProblem = taxIdError('tax_id', values.tax_id, isPerson ? 'cpf' : 'cnpj');
  const primaries = values.cnaes.filter((cnae) => cnae.is_primary).length;
  const seen = new Set<string>();
  const cnaeChecks: FieldCheck[] = values.cnaes.map((cnae, index) => {
    const field = `cnaes.${index}.code`;
    if (!/^\d{4}-?\d\/?\d{2}$/.test(cnae.code)) {
      return {
        field,
        failed: true,
        message: `${field} must be a CNAE subclass: 7 digits, as 4751201 or 4751-2/01.`,
      };
    }
    const digits = cnaeDigits(cnae.code);
    const repeated = seen.has(digits);
    seen.add(digits);
    return { field, failed: repeated, message: `${field}: CNAE ${cnae.code} is listed twice.` };
  });
  assertFields([
    {
      field: 'tax_id',
      failed: taxIdProblem !== null,
      message: `${taxIdProblem} A ${isPerson ? 'person (entity_type pf) takes a CPF' : 'company (entity_type pj) takes a CNPJ'}.`,
    },
    notBlank('trade_name', values.trade_name),
    notBlank('legal_name', values.legal_name),
    phoneCheck('phone', values.phone),
    !isPerson && {
      field: 'birth_date',
      failed: values.birth_date != null,
      message: 'birth_date applies to a person (entity_type pf) only; leave it out for a company (pj).',
    },
    !isPerson && {
      field: 'mother_name',
      failed: values.mother_name != null,
      message: 'mother_name applies to a person (entity_type pf) only; leave it out for a company (pj).',
    },
    birthDateCheck('birth_date', values.birth_date, now),
    notBlank('mother_name', values.mother_name),
    values.mcc != null && {
      field: 'mcc',
      failed: !/^\d{4}$/.test(values.mcc),
      message: 'mcc must be 4 digits, e.g. 5411.',
    },
    {
      field: 'cnaes',
      failed: primaries > 1,
      message: `At most one CNAE may have is_primary: true; ${primaries} do.`,
    },
    ...cnaeChecks,
  ]);
}

/** An explicit mcc wins; otherwise the primary CNAE's, when the mapping table knows it. */
function resolveMcc(mcc: string | null | undefined, cnaes: readonly StoredCnae[]) {
  if (mcc != null) return { mcc, mcc_source: 'provided' };
  const primary = cnaes.find((cnae) => cnae.is_primary);
  const resolved = primary ? mccForCnae(primary.code) : null;
  return { mcc: resolved, mcc_source: resolved ? 'cnae' : null };
}

/** What list `search` matches, lower-cased here so that accented capitals fold alike on both dialects. */
const searchText = (fields: {
  trade_name: string;
  legal_name: string;
  tax_id: string;
  email: string;
}): string => [fields.trade_name, fields.legal_name, fields.tax_id, fields.email].join('\n').toLowerCase();

const storedCnaes = (cnaes: SubmerchantCreate['cnaes']): StoredCnae[] =>
  (cnaes ?? []).map((cnae) => ({
    code: cnae.code,
    description: cnae.description ?? null,
    is_primary: cnae.is_primary ?? false,
  }));

function taxIdTaken(taxId: string, existingId?: string): ApiError {
  const which = existingId ? ` (submerchant ${existingId})` : '';
  return businessRule(
    'TAX_ID_ALREADY_REGISTERED',
    `You already registered a submerchant with tax_id ${taxId}${which}: one submerchant per tax id. Update that one instead.`,
    [{ field: 'tax_id', message: `tax_id ${taxId} is already registered${which}.` }],
  );
}

async function findByTaxId(db: Db, merchantId: string, taxId: string, exceptId?: string) {
  let query = db
    .selectFrom('submerchants')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('tax_id', '=', taxId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function createSubmerchant(
  db: Db,
  outbox: Outbox,
  merchantId: string,
  body: SubmerchantCreate,
  now: Date,
): Promise<Submerchant> {
  const cnaes = storedCnaes(body.cnaes);
  const entityType = body.entity_type ?? 'pj';
  checkSubmerchant({ ...body, entity_type: entityType, cnaes }, now);
  const timestamp = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      const existing = await findByTaxId(trx, merchantId, body.tax_id);
      if (existing) throw taxIdTaken(body.tax_id, existing.id);
      const row = await trx
        .insertInto('submerchants')
        .values({
          id: newId(),
          merchant_id: merchantId,
          entity_type: entityType,
          tax_id: body.tax_id,
          trade_name: body.trade_name,
          legal_name: body.legal_name,
          email: body.email,
          phone: body.phone,
          birth_date: body.birth_date ?? null,
          mother_name: body.mother_name ?? null,
          business_type: body.business_type ?? null,
          search_text: searchText({ ...body }),
          product_categories: toJson(body.product_categories ?? []),
          average_ticket: body.average_ticket ?? null,
          monthly_revenue: body.monthly_revenue ?? null,
          ...resolveMcc(body.mcc, cnaes),
          cnaes: toJson(cnaes),
          status: 'pending',
          rejection_reason: null,
          submitted_at: null,
          reviewed_at: null,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordStatusChange(trx, {
        submerchantId: row.id,
        subjectType: 'submerchant',
        subjectId: row.id,
        from: null,
        to: 'pending',
        actor: { kind: 'merchant', id: merchantId },
        now,
      });
      const submerchant = submerchantFromRow(row);
      await emitEvent(
        outbox,
        trx,
        merchantId,
        'submerchant.created',
        { submerchant: presentSubmerchant(submerchant) },
        now,
      );
      return submerchant;
    });
  } catch (error) {
    // Two concurrent creations with one tax id: the constraint lets one through.
    if (isUniqueViolation(error)) throw taxIdTaken(body.tax_id);
    throw error;
  }
}

export async function updateSubmerchant(
  db: Db,
  outbox: Outbox,
  id: string,
  actor: Actor & { kind: 'merchant' },
  patch: SubmerchantPatch,
  now: Date,
): Promise<Submerchant> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await lockSubmerchant(trx, id, { merchantId: actor.id }, now);
      if (row.status !== 'pending') {
        throw invalidState(
          `A submerchant can be edited only while pending; this one is ${row.status}.` +
            (row.status === 'rejected' ? ' Request resubmission first.' : ''),
        );
      }
      const cnaes = patch.cnaes ? storedCnaes(patch.cnaes) : (JSON.parse(row.cnaes) as StoredCnae[]);
      const merged = {
        entity_type: patch.entity_type ?? row.entity_type,
        tax_id: patch.tax_id ?? row.tax_id,
        trade_name: patch.trade_name ?? row.trade_name,
        legal_name: patch.legal_name ?? row.legal_name,
        phone: patch.phone ?? row.phone,
        birth_date: patch.birth_date !== undefined ? patch.birth_date : row.birth_date,
        mother_name: patch.mother_name !== undefined ? patch.mother_name : row.mother_name,
        mcc: patch.mcc !== undefined ? patch.mcc : row.mcc_source === 'provided' ? row.mcc : null,
        cnaes,
      };
      checkSubmerchant(merged, now);
      if (merged.entity_type === 'pf' && row.entity_type !== 'pf') {
        const representative = await trx
          .selectFrom('submerchant_representatives')
          .select('id')
          .where('submerchant_id', '=', id)
          .executeTakeFirst();
        if (representative) throw representativesOnlyForCompanies(id);
      }
      if (merged.tax_id !== row.tax_id) {
        const existing = await findByTaxId(trx, actor.id, merged.tax_id, id);
        if (existing) throw taxIdTaken(merged.tax_id, existing.id);
      }
      const updated = await trx
        .updateTable('submerchants')
        .set({
          entity_type: merged.entity_type,
          tax_id: merged.tax_id,
          trade_name: merged.trade_name,
          legal_name: merged.legal_name,
          phone: merged.phone,
          birth_date: merged.birth_date ?? null,
          mother_name: merged.mother_name ?? null,
          ...(patch.email !== undefined && { email: patch.email }),
          search_text: searchText({ ...merged, email: patch.email ?? row.email }),
          ...(patch.business_type !== undefined && { business_type: patch.business_type }),
          ...(patch.product_categories !== undefined && {
            product_categories: toJson(patch.product_categories),
          }),
          ...(patch.average_ticket !== undefined && { average_ticket: patch.average_ticket }),
          ...(patch.monthly_revenue !== undefined && { monthly_revenue: patch.monthly_revenue }),
          ...resolveMcc(merged.mcc, cnaes),
          cnaes: toJson(cnaes),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirstOrThrow();
      await emitSubmerchantUpdated(
        outbox,
        trx,
        actor.id,
        updated,
        { resource: 'submerchant', action: 'updated', fields: Object.keys(patch).sort() },
        now,
      );
      return submerchantFromRow(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error) && patch.tax_id) throw taxIdTaken(patch.tax_id);
    throw error;
  }
}

export async function listSubmerchants(
  db: Db,
  scope: Scope & { merchantFilter?: string },
  filters: ListFilters,
) {
  let query = db.selectFrom('submerchants').selectAll();
  if ('merchantId' in scope) query = query.where('merchant_id', '=', scope.merchantId);
  else if (scope.merchantFilter) query = query.where('merchant_id', '=', scope.merchantFilter);
  const { rows, pagination } = await paginate(query, filters, {
    createdAt: 'created_at',
    id: 'id',
    status: 'status',
    search: ['search_text'],
    searchStoredLowerCase: true,
  });
  return { submerchants: rows.map(submerchantFromRow), pagination };
}

/** A submerchant with what hangs off it, as review reads it; `present.ts` turns it into the interface's JSON. */
export interface SubmerchantDetail {
  submerchant: Submerchant;
  representatives: Representative[];
  addresses: Address[];
  /** Current documents only. */
  documents: SubmerchantDocument[];
  /** The submerchant's own status changes, oldest first. */
  statusHistory: StatusHistoryEntry[];
  requirements: Requirements;
}

/** The submerchant with its representatives, addresses, current documents, requirements and history. */
export async function getSubmerchantDetail(
  db: Db,
  id: string,
  scope: Scope,
  now: Date,
): Promise<SubmerchantDetail | null> {
  const found = await readSubmerchant(db, id, scope);
  if (!found) return null;
  const { row, representatives, addresses, documents, histories } = found;
  const requirements = computeRequirements({
    entityType: row.entity_type,
    mcc: row.mcc,
    representatives,
    addressCount: addresses.length,
    documents,
    now,
  });
  return {
    submerchant: submerchantFromRow(row),
    representatives: representatives.map(representativeFromRow),
    addresses: addresses.map(addressFromRow),
    documents: documents.map((document) => documentFromRow(document, histories.get(document.id) ?? [])),
    statusHistory: histories.get(row.id) ?? [],
    requirements,
  };
}

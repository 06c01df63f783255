import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { newId } from '../../core/ids.js';
import type { Database } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type ListFilters, paginate } from '../../db/lists.js';
import { prepared, preparedInsert } from '../../db/prepared.js';
import { businessRule, invalidState, notFound } from '../../errors.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { archiveDocuments } from '../archive/service.js';
import {
  type DocumentStatus,
  type DocumentType,
  documentSlot,
  isPartnerDocumentType,
} from '../document-types.js';
import { assertFields, httpUrlCheck, notBlank, parseInstant } from '../fields.js';
import { effectiveDocumentStatus } from '../requirements.js';
import {
  loadStatusHistories,
  lockWithFirstStatusChange,
  type StatusHistoryEntry,
} from '../status-history.js';
import {
  type Actor,
  type Db,
  emitEvent,
  emitSubmerchantUpdated,
  findAttached,
  lockSubmerchant,
  requireAttached,
  requireSubmerchant,
  type Scope,
} from '../store.js';
import type { SubmerchantDocumentsTable } from '../table.js';
import { presentDocument } from './present.js';
import type { DocumentBody } from './schemas.js';

export type DocumentInput = Static<typeof DocumentBody>;

export type DocumentRow = Selectable<SubmerchantDocumentsTable>;

/** A document sent for review, with its status history (oldest first). */
export interface SubmerchantDocument {
  id: string;
  submerchantId: string;
  legalRepresentativeId: string | null;
  type: DocumentType;
  number: string | null;
  fileUrl: string;
  fileName: string;
  fileSize: number;
  mimeType: string;
  expiresAt: string | null;
  notes: string | null;
  /** As recorded: past `expiresAt` it is expired whatever this says (`effectiveDocumentStatus`). */
  status: DocumentStatus;
  rejectionReason: string | null;
  reviewedAt: string | null;
  replacedAt: string | null;
  replacesDocumentId: string | null;
  statusHistory: StatusHistoryEntry[];
  createdAt: string;
  updatedAt: string;
}

export function documentFromRow(row: DocumentRow, statusHistory: StatusHistoryEntry[]): SubmerchantDocument {
  return {
    id: row.id,
    submerchantId: row.submerchant_id,
    legalRepresentativeId: row.legal_representative_id,
    type: row.type as DocumentType,
    number: row.number,
    fileUrl: row.file_url,
    fileName: row.file_name,
    fileSize: Number(row.file_size),
    mimeType: row.mime_type,
    expiresAt: row.expires_at,
    notes: row.notes,
    status: row.status as DocumentStatus,
    rejectionReason: row.rejection_reason,
    reviewedAt: row.reviewed_at,
    replacedAt: row.replaced_at,
    replacesDocumentId: row.replaces_document_id,
    statusHistory,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function hasExtension(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return !/[/\\]/.test(fileName) && dot > 0 && /^[A-Za-z0-9]{1,10}$/.test(fileName.slice(dot + 1));
}

function checkDocument(body: DocumentInput): { expiresAt: string | null } {
  const expiresAt = body.expires_at === undefined ? null : parseInstant(body.expires_at);
  const partner = isPartnerDocumentType(body.type);
  assertFields([
    httpUrlCheck('file_url', body.file_url),
    {
      field: 'file_name',
      failed: !hasExtension(body.file_name),
      message: 'file_name must be a file name with an extension, e.g. contract.pdf (no folders).',
    },
    notBlank('number', body.number),
    body.expires_at !== undefined && {
      field: 'expires_at',
      failed: expiresAt === null,
      message:
        'expires_at must be an ISO 8601 date-time (2027-01-31T23:59:59Z, any offset) or a date (2027-01-31).',
    },
    {
      field: 'legal_representative_id',
      failed: partner && body.legal_representative_id === undefined,
      message: `legal_representative_id is required for ${body.type}: name the legal representative the document belongs to.`,
    },
    {
      field: 'legal_representative_id',
      failed: !partner && body.legal_representative_id !== undefined,
      message: `legal_representative_id is only for partner_* document types; ${body.type} belongs to the submerchant itself.`,
    },
  ]);
  return { expiresAt };
}

/**
 * Records a document. If the slot (the type, and for partner documents the representative) already has a
 * current document, that one gets `replaced_at` and the new one becomes current. The submerchant's lock and
 * the partial UNIQUE index on current slots leave exactly one current document, however uploads interleave.
 */
export async function createDocument(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  actor: Actor & { kind: 'merchant' },
  body: DocumentInput,
  now: Date,
): Promise<{ document: SubmerchantDocument; replacedId: string | null }> {
  const { expiresAt } = checkDocument(body);
  const representativeId = body.legal_representative_id ?? null;
  const timestamp = now.toISOString();
  // Everything the request can know is worked out before the lock: under it, only the writes.
  const fields: NewDocument = {
    id: newId(),
    submerchant_id: submerchantId,
    legal_representative_id: representativeId,
    type: body.type,
    slot: documentSlot(body.type, representativeId),
    number: body.number ?? null,
    file_url: body.file_url,
    file_name: body.file_name,
    file_size: body.file_size,
    mime_type: body.mime_type,
    expires_at: expiresAt,
    notes: body.notes ?? null,
    status: 'pending',
    rejection_reason: null,
    reviewed_at: null,
    replaced_at: null,
    created_at: timestamp,
    updated_at: timestamp,
  };
  const status = {
    submerchantId,
    subjectType: 'document',
    subjectId: fields.id,
    to: 'pending',
    actor,
    now,
  } as const;
  return db.transaction().execute(async (trx) => {
    const entry = await lockWithFirstStatusChange(trx, actor.id, status);
    if (representativeId) {
      if (!(await findAttached(trx, 'submerchant_representatives', submerchantId, representativeId))) {
        throw businessRule(
          'LEGAL_REPRESENTATIVE_NOT_FOUND',
          `legal_representative_id ${representativeId} is not a legal representative of this submerchant: add it first (POST /v1/submerchants/${submerchantId}/legal-representatives) or use one of its ids.`,
          [{ field: 'legal_representative_id', message: 'Not a legal representative of this submerchant.' }],
        );
      }
    }
    const replacedId = await insertAsCurrent(trx, fields);
    const document = documentFromRow({ ...fields, replaces_document_id: replacedId }, [entry]);
    await emitEvent(
      outbox,
      trx,
      actor.id,
      'document.created',
      { document: presentDocument(document, now) },
      now,
    );
    return { document, replacedId };
  });
}

type NewDocument = Omit<DocumentRow, 'replaces_document_id'>;

/**
 * Inserts the document as its slot's current one, retiring the document that was (`replaced_at`); answers the
 * retired document's id, or null when the slot was empty. Call under the submerchant's lock. PostgreSQL does both
 * in one statement, a data-modifying WITH (the INSERT needs the retired id, so the UPDATE has run before the new
 * row meets the unique index on current slots): one round trip fewer under the lock that every other upload to
 * the submerchant waits for. SQLite has no such WITH, and no round trips: two statements. Each is compiled once
 * and, on PostgreSQL, named (db/prepared.ts): parsed and planned once per connection, not under every lock.
 */
async function insertAsCurrent(trx: Db, document: NewDocument): Promise<string | null> {
  if (dialectOf(trx) === 'postgres') {
    const { rows } = await retireAndInsert(trx, document);
    return rows[0]!.replaces_document_id;
  }
  const replacedId = (await retire(trx, document)).rows[0]?.id ?? null;
  await insertDocument(trx, { ...document, replaces_document_id: replacedId });
  return replacedId;
}

type DocumentValue = keyof NewDocument;

/** The slot's current document gets `replaced_at`: the retired document's id, if there was one. */
const retiring = (db: Db, value: <T = string>(name: DocumentValue) => T) =>
  db
    .updateTable('submerchant_documents')
    .set({ replaced_at: value('created_at'), updated_at: value('created_at') })
    .where('submerchant_id', '=', value('submerchant_id'))
    .where('slot', '=', value('slot'))
    .where('replaced_at', 'is', null)
    .returning('id');

const retire = prepared<Database, DocumentValue, { id: string }>(retiring);

const insertDocument = preparedInsert<Database, 'submerchant_documents'>('submerchant_documents');

const retireAndInsert = prepared<Database, DocumentValue, Pick<DocumentRow, 'replaces_document_id'>>(
  (db, value) =>
    db
      .with('retired', () => retiring(db, value))
      .insertInto('submerchant_documents')
      .values({
        id: value('id'),
        submerchant_id: value('submerchant_id'),
        legal_representative_id: value('legal_representative_id'),
        type: value('type'),
        slot: value('slot'),
        number: value('number'),
        file_url: value('file_url'),
        file_name: value('file_name'),
        file_size: value<number>('file_size'),
        mime_type: value('mime_type'),
        expires_at: value('expires_at'),
        notes: value('notes'),
        status: value('status'),
        rejection_reason: value('rejection_reason'),
        reviewed_at: value('reviewed_at'),
        replaced_at: value('replaced_at'),
        replaces_document_id: (eb) => eb.selectFrom('retired').select('id'),
        created_at: value('created_at'),
        updated_at: value('updated_at'),
      })
      .returning('replaces_document_id'),
);

export type DocumentListFilters = ListFilters & { type?: string; current?: boolean };

export async function listDocuments(
  db: Db,
  submerchantId: string,
  scope: Scope,
  filters: DocumentListFilters,
  now: Date,
) {
  await requireSubmerchant(db, submerchantId, scope);
  let query = db.selectFrom('submerchant_documents').selectAll().where('submerchant_id', '=', submerchantId);
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.current !== undefined) {
    query = query.where('replaced_at', filters.current ? 'is' : 'is not', null);
  }
  // Filter on the status the API shows: a document past its expires_at is expired.
  const at = now.toISOString();
  if (filters.status === 'expired') {
    query = query.where((eb) =>
      eb.or([
        eb('status', '=', 'expired'),
        eb.and([eb('status', '!=', 'rejected'), eb('expires_at', '<=', at)]),
      ]),
    );
  } else if (filters.status === 'pending' || filters.status === 'approved') {
    query = query
      .where('status', '=', filters.status)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));
  } else if (filters.status === 'rejected') {
    query = query.where('status', '=', 'rejected');
  }
  const { rows, pagination } = await paginate(
    query,
    { ...filters, status: undefined },
    {
      createdAt: 'created_at',
      id: 'id',
      search: ['file_name', 'number', 'type'],
    },
  );
  const histories = await loadStatusHistories(
    db,
    submerchantId,
    rows.map((row) => row.id),
  );
  return {
    documents: rows.map((row) => documentFromRow(row, histories.get(row.id) ?? [])),
    pagination,
  };
}

export async function getDocument(
  db: Db,
  submerchantId: string,
  documentId: string,
  scope: Scope,
): Promise<SubmerchantDocument> {
  const row = await requireAttached(
    db,
    'submerchant_documents',
    submerchantId,
    documentId,
    scope,
    'Document',
  );
  const histories = await loadStatusHistories(db, submerchantId, [row.id]);
  return documentFromRow(row, histories.get(row.id) ?? []);
}

/**
 * Deletes a current document that review has not approved (a wrong upload): the slot is empty again, and a
 * document it replaced stays replaced. An approved document is evidence review relied on: 409, send a new one
 * to replace it instead. Replaced documents are history and are kept. The deleted document moves to the archive
 * with its review history: the operator can still read it.
 */
export async function deleteDocument(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  documentId: string,
  actor: Actor & { kind: 'merchant' },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    const document = await findAttached(trx, 'submerchant_documents', submerchantId, documentId);
    if (!document) throw notFound('Document');
    if (document.replaced_at !== null) {
      throw invalidState(
        `Document ${documentId} was replaced at ${document.replaced_at}: replaced documents are kept as history.`,
      );
    }
    if (effectiveDocumentStatus(document, now) === 'approved') {
      throw invalidState(
        `Document ${documentId} is approved: review relied on it, so it cannot be deleted. Send a new ${document.type} document to replace it.`,
      );
    }
    await archiveDocuments(trx, submerchantId, [documentId], { actor, now });
    await emitSubmerchantUpdated(
      outbox,
      trx,
      actor.id,
      submerchant,
      { resource: 'document', action: 'deleted', id: documentId, type: document.type },
      now,
    );
  });
}

import type { Selectable } from 'kysely';
import { documentFromRow, type SubmerchantDocument } from '../documents/service.js';
import { type Representative, representativeFromRow } from '../representatives/service.js';
import { loadStatusHistories } from '../status-history.js';
import { type Actor, type Db, requireSubmerchant } from '../store.js';
import type { SubmerchantRepresentativesArchiveTable } from '../table.js';

/** Who deletes, and when: kept with the archived rows. */
export interface Deletion {
  actor: Actor;
  now: Date;
}

const deletionColumns = ({ actor, now }: Deletion) => ({
  deleted_at: now.toISOString(),
  deleted_by_actor: actor.kind,
  deleted_by: actor.id,
});

/**
 * Moves documents of a submerchant from the live table to the archive, with who deleted them and when; their
 * status history stays where it is. Call in the deleting transaction, under the submerchant's lock.
 */
export async function archiveDocuments(
  trx: Db,
  submerchantId: string,
  documentIds: readonly string[],
  deletion: Deletion,
): Promise<void> {
  if (documentIds.length === 0) return;
  const rows = await trx
    .selectFrom('submerchant_documents')
    .selectAll()
    .where('submerchant_id', '=', submerchantId)
    .where('id', 'in', documentIds)
    .execute();
  await trx
    .insertInto('submerchant_documents_archive')
    .values(rows.map((row) => ({ ...row, ...deletionColumns(deletion) })))
    .execute();
  await trx.deleteFrom('submerchant_documents').where('id', 'in', documentIds).execute();
}

/** Moves a legal representative to the archive (its documents first: they reference it). */
export async function archiveRepresentative(
  trx: Db,
  submerchantId: string,
  representativeId: string,
  deletion: Deletion,
): Promise<void> {
  const row = await trx
    .selectFrom('submerchant_representatives')
    .selectAll()
    .where('submerchant_id', '=', submerchantId)
    .where('id', '=', representativeId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('submerchant_representatives_archive')
    .values({ ...row, ...deletionColumns(deletion) })
    .execute();
  await trx.deleteFrom('submerchant_representatives').where('id', '=', representativeId).execute();
}

/** Who deleted an archived record, and when. */
export interface Deleted {
  deletedAt: string;
  deletedBy: Actor;
}

type DeletionColumn = 'deleted_at' | 'deleted_by_actor' | 'deleted_by';

const deletedFromRow = (
  row: Pick<Selectable<SubmerchantRepresentativesArchiveTable>, DeletionColumn>,
): Deleted => ({
  deletedAt: row.deleted_at,
  deletedBy: { kind: row.deleted_by_actor as Actor['kind'], id: row.deleted_by },
});

export interface SubmerchantArchive {
  representatives: (Representative & Deleted)[];
  /** Each with its status history. */
  documents: (SubmerchantDocument & Deleted)[];
}

/** What was deleted from a submerchant (any merchant's: the operator's read), most recently deleted first. */
export async function readArchive(db: Db, submerchantId: string): Promise<SubmerchantArchive> {
  await requireSubmerchant(db, submerchantId, { operator: true });
  const [representatives, documents] = await Promise.all([
    db
      .selectFrom('submerchant_representatives_archive')
      .selectAll()
      .where('submerchant_id', '=', submerchantId)
      .orderBy('deleted_at', 'desc')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('submerchant_documents_archive')
      .selectAll()
      .where('submerchant_id', '=', submerchantId)
      .orderBy('deleted_at', 'desc')
      .orderBy('id')
      .execute(),
  ]);
  const histories = await loadStatusHistories(
    db,
    submerchantId,
    documents.map((document) => document.id),
  );
  return {
    representatives: representatives.map((row) => ({
      ...representativeFromRow(row),
      ...deletedFromRow(row),
    })),
    documents: documents.map((row) => ({
      ...documentFromRow(row, histories.get(row.id) ?? []),
      ...deletedFromRow(row),
    })),
  };
}

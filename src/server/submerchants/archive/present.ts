import { presentDocument } from '../documents/present.js';
import { presentRepresentative } from '../representatives/present.js';
import type { Deleted, SubmerchantArchive } from './service.js';

const presentDeletion = (deleted: Deleted) => ({
  deleted_at: deleted.deletedAt,
  deleted_by: { actor: deleted.deletedBy.kind, actor_id: deleted.deletedBy.id },
});

const presentDeletionRow = (row: { deleted_at: string; deleted_by_actor: string; deleted_by: string }) => ({
  deleted_at: row.deleted_at,
  deleted_by: { actor: row.deleted_by_actor as 'merchant' | 'operator', actor_id: row.deleted_by },
});

export function presentArchive(submerchantId: string, archive: SubmerchantArchive, now: Date) {
  return {
    submerchant_id: submerchantId,
    legal_representatives: archive.representatives.map((representative) => ({
      ...presentRepresentative(representative),
      ...presentDeletion(representative),
    })),
    documents: archive.documents.map((row) => ({
      ...presentDocument(row, archive.histories.get(row.id) ?? [], now),
      ...presentDeletionRow(row),
    })),
  };
}

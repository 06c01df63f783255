import { presentDocument } from '../documents/present.js';
import { presentRepresentative } from '../representatives/present.js';
import type { Deleted, SubmerchantArchive } from './service.js';

const presentDeletion = (deleted: Deleted) => ({
  deleted_at: deleted.deletedAt,
  deleted_by: { actor: deleted.deletedBy.kind, actor_id: deleted.deletedBy.id },
});

export function presentArchive(submerchantId: string, archive: SubmerchantArchive, now: Date) {
  return {
    submerchant_id: submerchantId,
    legal_representatives: archive.representatives.map((representative) => ({
      ...presentRepresentative(representative),
      ...presentDeletion(representative),
    })),
    documents: archive.documents.map((document) => ({
      ...presentDocument(document, now),
      ...presentDeletion(document),
    })),
  };
}

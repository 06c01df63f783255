import type { DocumentStatus } from '../document-types.js';
import { effectiveDocumentStatus } from '../requirements.js';
import { presentStatusHistory } from '../status-history-present.js';
import type { SubmerchantDocument } from './service.js';

export function presentDocument(document: SubmerchantDocument, now: Date) {
  return {
    id: document.id,
    submerchant_id: document.submerchantId,
    type: document.type,
    legal_representative_id: document.legalRepresentativeId,
    number: document.number,
    file_url: document.fileUrl,
    file_name: document.fileName,
    file_size: document.fileSize,
    mime_type: document.mimeType,
    expires_at: document.expiresAt,
    notes: document.notes,
    status: effectiveDocumentStatus(
      { status: document.status, expires_at: document.expiresAt },
      now,
    ) as DocumentStatus,
    rejection_reason: document.rejectionReason,
    reviewed_at: document.reviewedAt,
    current: document.replacedAt === null,
    replaced_at: document.replacedAt,
    replaces_document_id: document.replacesDocumentId,
    status_history: presentStatusHistory(document.statusHistory),
    created_at: document.createdAt,
    updated_at: document.updatedAt,
  };
}

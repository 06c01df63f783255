import type { Selectable } from 'kysely';
import type { DocumentStatus, DocumentType } from '../document-types.js';
import { effectiveDocumentStatus } from '../requirements.js';
import type { StatusHistoryEntry } from '../status-history.js';
import { presentStatusHistory } from '../status-history-present.js';
import type { SubmerchantDocumentsTable } from '../table.js';

export type DocumentRow = Selectable<SubmerchantDocumentsTable>;

export function presentDocument(row: DocumentRow, history: StatusHistoryEntry[], now: Date) {
  return {
    id: row.id,
    submerchant_id: row.submerchant_id,
    type: row.type as DocumentType,
    legal_representative_id: row.legal_representative_id,
    number: row.number,
    file_url: row.file_url,
    file_name: row.file_name,
    file_size: Number(row.file_size),
    mime_type: row.mime_type,
    expires_at: row.expires_at,
    notes: row.notes,
    status: effectiveDocumentStatus(row, now) as DocumentStatus,
    rejection_reason: row.rejection_reason,
    reviewed_at: row.reviewed_at,
    current: row.replaced_at === null,
    replaced_at: row.replaced_at,
    replaces_document_id: row.replaces_document_id,
    status_history: presentStatusHistory(history),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

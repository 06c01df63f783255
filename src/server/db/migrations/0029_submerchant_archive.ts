import type { CreateTableBuilder, Kysely, Migration } from 'kysely';

/**
 * 0029: deleting a legal representative or a document keeps the audit trail
 * (docs/decisions/deletions-keep-the-audit-trail.md). The deleted rows move to archive tables with who
 * deleted them and when; the live tables keep only what the merchant sees, so every merchant route, the
 * upsert key and the one-current-document index stay as they were. Their status history stays in
 * submerchant_status_changes.
 */
const deletion = <T extends string>(table: CreateTableBuilder<T>) =>
  table
    .addColumn('deleted_at', 'text', (col) => col.notNull())
    .addColumn('deleted_by_actor', 'text', (col) => col.notNull())
    .addColumn('deleted_by', 'text', (col) => col.notNull());

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await deletion(
      db.schema
        .createTable('submerchant_representatives_archive')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('submerchant_id', 'text', (col) => col.notNull().references('submerchants.id'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('document', 'text', (col) => col.notNull())
        .addColumn('entity_type', 'text', (col) => col.notNull())
        .addColumn('legal_name', 'text')
        .addColumn('birth_date', 'text')
        .addColumn('mother_name', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('role', 'text')
        .addColumn('qualification', 'text')
        .addColumn('participation_hundredths', 'integer')
        .addColumn('is_admin', 'integer', (col) => col.notNull())
        .addColumn('review_status', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull()),
    ).execute();
    await deletion(
      db.schema
        .createTable('submerchant_documents_archive')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('submerchant_id', 'text', (col) => col.notNull().references('submerchants.id'))
        // No reference: the representative may be archived too.
        .addColumn('legal_representative_id', 'text')
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('slot', 'text', (col) => col.notNull())
        .addColumn('number', 'text')
        .addColumn('file_url', 'text', (col) => col.notNull())
        .addColumn('file_name', 'text', (col) => col.notNull())
        .addColumn('file_size', 'bigint', (col) => col.notNull())
        .addColumn('mime_type', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('notes', 'text')
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('rejection_reason', 'text')
        .addColumn('reviewed_at', 'text')
        .addColumn('replaced_at', 'text')
        .addColumn('replaces_document_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull()),
    ).execute();
    for (const table of ['submerchant_representatives_archive', 'submerchant_documents_archive']) {
      await db.schema
        .createIndex(`${table}_submerchant`)
        .on(table)
        .columns(['submerchant_id', 'deleted_at'])
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('submerchant_documents_archive').execute();
    await db.schema.dropTable('submerchant_representatives_archive').execute();
  },
};

export default migration;

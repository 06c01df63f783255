import { type Kysely, type Migration, sql } from 'kysely';

/** 0007_submerchants: submerchants and everything onboarding attaches to them. */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('submerchants')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('entity_type', 'text', (col) => col.notNull())
      .addColumn('tax_id', 'text', (col) => col.notNull())
      .addColumn('trade_name', 'text', (col) => col.notNull())
      .addColumn('legal_name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('phone', 'text', (col) => col.notNull())
      .addColumn('birth_date', 'text')
      .addColumn('mother_name', 'text')
      .addColumn('business_type', 'text')
      .addColumn('search_text', 'text', (col) => col.notNull())
      .addColumn('product_categories', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('average_ticket', 'bigint')
      .addColumn('monthly_revenue', 'bigint')
      .addColumn('mcc', 'text')
      .addColumn('mcc_source', 'text')
      .addColumn('cnaes', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('rejection_reason', 'text')
      .addColumn('submitted_at', 'text')
      .addColumn('reviewed_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      // One tax id per merchant, even under concurrent creations.
      .addUniqueConstraint('submerchants_merchant_tax_id', ['merchant_id', 'tax_id'])
      .execute();
    await db.schema
      .createIndex('submerchants_merchant_created')
      .on('submerchants')
      .columns(['merchant_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('submerchants_status_created')
      .on('submerchants')
      .columns(['status', 'created_at'])
      .execute();

    await db.schema
      .createTable('submerchant_representatives')
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
      .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      // The upsert key: concurrent POSTs of one document converge on one record.
      .addUniqueConstraint('submerchant_representatives_document', ['submerchant_id', 'document'])
      .execute();

    await db.schema
      .createTable('submerchant_documents')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('submerchant_id', 'text', (col) => col.notNull().references('submerchants.id'))
      .addColumn('legal_representative_id', 'text', (col) => col.references('submerchant_representatives.id'))
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
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    // Exactly one current document per slot, whatever the interleaving of uploads.
    await db.schema
      .createIndex('submerchant_documents_current_slot')
      .unique()
      .on('submerchant_documents')
      .columns(['submerchant_id', 'slot'])
      .where(sql<boolean>`replaced_at is null`)
      .execute();
    await db.schema
      .createIndex('submerchant_documents_created')
      .on('submerchant_documents')
      .columns(['submerchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('submerchant_addresses')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('submerchant_id', 'text', (col) => col.notNull().references('submerchants.id'))
      .addColumn('street', 'text', (col) => col.notNull())
      .addColumn('number', 'text', (col) => col.notNull())
      .addColumn('complement', 'text')
      .addColumn('neighborhood', 'text', (col) => col.notNull())
      .addColumn('city', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('zip_code', 'text', (col) => col.notNull())
      .addColumn('country', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('is_primary', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    // At most one primary address per submerchant.
    await db.schema
      .createIndex('submerchant_addresses_one_primary')
      .unique()
      .on('submerchant_addresses')
      .column('submerchant_id')
      .where(sql<boolean>`is_primary = 1`)
      .execute();
    await db.schema
      .createIndex('submerchant_addresses_created')
      .on('submerchant_addresses')
      .columns(['submerchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('submerchant_status_changes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('submerchant_id', 'text', (col) => col.notNull().references('submerchants.id'))
      .addColumn('subject_type', 'text', (col) => col.notNull())
      .addColumn('subject_id', 'text', (col) => col.notNull())
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('from_status', 'text')
      .addColumn('to_status', 'text', (col) => col.notNull())
      .addColumn('actor', 'text', (col) => col.notNull())
      .addColumn('actor_id', 'text', (col) => col.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('submerchant_status_changes_seq', ['subject_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('submerchant_status_changes_submerchant')
      .on('submerchant_status_changes')
      .column('submerchant_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'submerchant_status_changes',
      'submerchant_addresses',
      'submerchant_documents',
      'submerchant_representatives',
      'submerchants',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};

export default migration;

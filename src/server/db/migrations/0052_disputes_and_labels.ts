import type { Kysely, Migration } from 'kysely';

/**
 * Disputes (chargebacks) of charges, one per charge, and the fraud labels that review decisions and disputes put
 * on charges (docs/disputes.md, docs/charges.md "Labels"). A label keeps, beside its charge, keyed hashes of the
 * charge's visitor id, card, buyer document and IP (risk/labels.ts): the rules look labels up by those, at the
 * merchant and across the platform, and nothing in them can be read back. New tables only.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('disputes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('merchant_id', 'text', (column) => column.notNull().references('merchants.id'))
      .addColumn('charge_id', 'text', (column) => column.notNull().unique().references('charges.id'))
      .addColumn('amount', 'bigint', (column) => column.notNull())
      .addColumn('reason', 'text', (column) => column.notNull())
      .addColumn('network_reason_code', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('evidence_due_by', 'text', (column) => column.notNull())
      .addColumn('evidence', 'text')
      .addColumn('evidence_submitted_at', 'text')
      .addColumn('closed_at', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('disputes_merchant_created')
      .on('disputes')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('fraud_labels')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('merchant_id', 'text', (column) => column.notNull().references('merchants.id'))
      .addColumn('charge_id', 'text', (column) => column.notNull().references('charges.id'))
      .addColumn('label', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('visitor_key', 'text')
      .addColumn('card_key', 'text')
      .addColumn('buyer_key', 'text', (column) => column.notNull())
      .addColumn('ip_key', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('fraud_labels_charge').on('fraud_labels').column('charge_id').execute();
    for (const key of ['visitor_key', 'card_key', 'buyer_key', 'ip_key']) {
      await db.schema.createIndex(`fraud_labels_${key}`).on('fraud_labels').columns([key, 'label']).execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fraud_labels').execute();
    await db.schema.dropTable('disputes').execute();
  },
};

export default migration;

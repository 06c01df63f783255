import type { Kysely, Migration } from 'kysely';

/**
 * What a PIX or boleto charge issued, one row beside its charge (the list reads them for its page's non-card
 * charges only), and the payments that arrived too late (refused, kept for reconciliation and the buyer's refund).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('charge_pix')
      .addColumn('charge_id', 'text', (col) => col.primaryKey().references('charges.id'))
      .addColumn('txid', 'text', (col) => col.notNull().unique())
      .addColumn('location', 'text', (col) => col.notNull())
      .addColumn('br_code', 'text', (col) => col.notNull())
      .addColumn('qr_code_svg', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('charge_boleto')
      .addColumn('charge_id', 'text', (col) => col.primaryKey().references('charges.id'))
      .addColumn('bank', 'text', (col) => col.notNull())
      .addColumn('our_number', 'text', (col) => col.notNull().unique())
      .addColumn('barcode', 'text', (col) => col.notNull())
      .addColumn('digitable_line', 'text', (col) => col.notNull())
      .addColumn('due_date', 'text', (col) => col.notNull())
      .addColumn('instructions', 'text')
      .addColumn('page_token', 'text', (col) => col.notNull().unique())
      .addColumn('url', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('charge_late_payments')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('charge_id', 'text', (col) => col.notNull().references('charges.id'))
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('charge_status', 'text', (col) => col.notNull())
      .addColumn('received_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('charge_late_payments_charge')
      .on('charge_late_payments')
      .column('charge_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('charge_late_payments').execute();
    await db.schema.dropTable('charge_boleto').execute();
    await db.schema.dropTable('charge_pix').execute();
  },
};

export default migration;

import { type Kysely, type Migration, sql } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('charges')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('payment_method', 'text', (col) => col.notNull())
      .addColumn('installments', 'integer', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('failure_code', 'text')
      .addColumn('failure_message', 'text')
      .addColumn('customer_name', 'text', (col) => col.notNull())
      .addColumn('customer_email', 'text', (col) => col.notNull())
      .addColumn('customer_document', 'text', (col) => col.notNull())
      .addColumn('customer_document_type', 'text', (col) => col.notNull())
      .addColumn('card_token_id', 'text', (col) => col.notNull().unique())
      .addColumn('card_brand', 'text', (col) => col.notNull())
      .addColumn('card_bin', 'text', (col) => col.notNull())
      .addColumn('card_last4', 'text', (col) => col.notNull())
      .addColumn('card_exp_month', 'integer', (col) => col.notNull())
      .addColumn('card_exp_year', 'integer', (col) => col.notNull())
      .addColumn('card_holder_name', 'text', (col) => col.notNull())
      .addColumn('card_hash', 'text', (col) => col.notNull())
      .addColumn('fraud_session_id', 'text', (col) => col.unique())
      .addColumn('visitor_id', 'text')
      .addColumn('fraud_status', 'text', (col) => col.notNull())
      .addColumn('fraud_score', 'integer', (col) => col.notNull())
      .addColumn('fraud_reasons', 'text', (col) => col.notNull().defaultTo(sql`'[]'`))
      .addColumn('search_text', 'text', (col) => col.notNull())
      .addColumn('refunded_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    // The list: newest first within a merchant and a date range; search_text rides along so that a search
    // is checked on the index entries alone, reading the table only for the page it returns.
    await db.schema
      .createIndex('charges_merchant_created')
      .on('charges')
      .columns(['merchant_id', 'created_at', 'id', 'search_text'])
      .execute();
    await db.schema
      .createIndex('charges_merchant_status_created')
      .on('charges')
      .columns(['merchant_id', 'status', 'created_at', 'id', 'search_text'])
      .execute();
    // Velocity rules: recent charges of one card or one device.
    await db.schema
      .createIndex('charges_merchant_card_created')
      .on('charges')
      .columns(['merchant_id', 'card_hash', 'created_at'])
      .execute();
    await db.schema
      .createIndex('charges_merchant_visitor_created')
      .on('charges')
      .columns(['merchant_id', 'visitor_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('idempotency_key', 'text', (col) => col.notNull())
      .addColumn('request_hash', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('claim_id', 'text', (col) => col.notNull())
      .addColumn('locked_until', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'idempotency_key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_expires')
      .on('idempotency_keys')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('merchant_risk_settings')
      .addColumn('merchant_id', 'text', (col) => col.primaryKey().references('merchants.id'))
      .addColumn('review_threshold', 'integer', (col) => col.notNull())
      .addColumn('decline_threshold', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('merchant_risk_settings').execute();
    await db.schema.dropTable('idempotency_keys').execute();
    await db.schema.dropTable('charges').execute();
  },
};

export default migration;

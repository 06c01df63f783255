import type { Kysely, Migration } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fraud_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('declared_ip_address', 'text')
      .addColumn('declared_type', 'text', (col) => col.notNull())
      .addColumn('declared_host_name', 'text', (col) => col.notNull())
      .addColumn('declared_cookies_accepted', 'integer', (col) => col.notNull())
      .addColumn('declared_user_agent', 'text', (col) => col.notNull())
      .addColumn('observed_ip_address', 'text', (col) => col.notNull())
      .addColumn('observed_user_agent', 'text')
      .addColumn('observed_origin', 'text')
      .addColumn('parsed_type', 'text', (col) => col.notNull())
      .addColumn('observed_type', 'text')
      .addColumn('user_agent_readings', 'text', (col) => col.notNull())
      .addColumn('visitor_id', 'text')
      .addColumn('automation', 'integer')
      .addColumn('signals', 'text')
      .addColumn('signals_at', 'text')
      .addColumn('charge_id', 'text')
      .addColumn('consumed_at', 'text')
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('fraud_sessions_merchant_created')
      .on('fraud_sessions')
      .columns(['merchant_id', 'created_at'])
      .execute();
    // Device velocity: "how many sessions/charges did this visitor have lately".
    await db.schema
      .createIndex('fraud_sessions_visitor_created')
      .on('fraud_sessions')
      .columns(['visitor_id', 'created_at'])
      .execute();
    // The purge scans by expiry.
    await db.schema.createIndex('fraud_sessions_expires').on('fraud_sessions').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fraud_sessions').execute();
  },
};

export default migration;

import type { Kysely, Migration } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('events', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('secret_sealed', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_endpoints_merchant_created')
      .on('webhook_endpoints')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      // Deleting an endpoint drops what it was still owed: a deleted endpoint receives nothing.
      .addColumn('endpoint_id', 'text', (col) =>
        col.notNull().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'text', (col) => col.notNull().references('events.id'))
      .addColumn('event_type', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempt_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('retry_step', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('locked_by', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
      .execute();
    // The worker's claim: due pending deliveries, oldest due first.
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_endpoint_created')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('delivery_id', 'text', (col) =>
        col.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('attempt', 'integer', (col) => col.notNull())
      .addColumn('attempted_at', 'text', (col) => col.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('latency_ms', 'integer', (col) => col.notNull())
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('webhook_attempts_delivery')
      .on('webhook_attempts')
      .columns(['delivery_id', 'attempt'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhook_endpoints').execute();
  },
};

export default migration;

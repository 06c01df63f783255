import type { Kysely, Migration } from 'kysely';

/**
 * The platform-wide device graph (docs/decisions/device-graph.md): one row per charge that had a device
 * (visitor id), every value a keyed hash (risk/device-graph.ts), so that the graph links devices across
 * merchants without holding anything readable. No charge id and no merchant id: a row cannot be joined back
 * to a charge. The risk step reads a device's recent rows (visitor key, newest first); the hourly purge
 * deletes rows past retention by time.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('device_graph')
      .addColumn('visitor_key', 'text', (col) => col.notNull())
      .addColumn('merchant_key', 'text', (col) => col.notNull())
      .addColumn('buyer_key', 'text', (col) => col.notNull())
      .addColumn('card_key', 'text', (col) => col.notNull())
      .addColumn('components_digest', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('device_graph_visitor_created')
      .on('device_graph')
      .columns(['visitor_key', 'created_at'])
      .execute();
    await db.schema.createIndex('device_graph_created').on('device_graph').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('device_graph').execute();
  },
};

export default migration;

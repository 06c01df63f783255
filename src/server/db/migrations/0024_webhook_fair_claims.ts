import type { Kysely, Migration } from 'kysely';

/**
 * Fair claiming of webhook deliveries (webhooks/claim.ts): each endpoint's host, so that one slow host holds at
 * most its share of a worker's slots; an index to take each endpoint's oldest due deliveries; and one on the
 * lease holder, to count what the worker already holds per merchant and per host.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('webhook_endpoints')
      .addColumn('host', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    // The host as WHATWG URL parsing gives it (lower case, the port unless it is the scheme's default), the
    // same as the service writes for new endpoints.
    const endpoints = await (db as Kysely<{ webhook_endpoints: { id: string; url: string; host: string } }>)
      .selectFrom('webhook_endpoints')
      .select(['id', 'url'])
      .execute();
    for (const endpoint of endpoints) {
      await (db as Kysely<{ webhook_endpoints: { id: string; host: string } }>)
        .updateTable('webhook_endpoints')
        .set({ host: new URL(endpoint.url).host })
        .where('id', '=', endpoint.id)
        .execute();
    }
    await db.schema
      .createIndex('webhook_deliveries_endpoint_due')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'status', 'next_attempt_at', 'id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_locked_by')
      .on('webhook_deliveries')
      .columns(['locked_by', 'lease_expires_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_locked_by').execute();
    await db.schema.dropIndex('webhook_deliveries_endpoint_due').execute();
    await db.schema.alterTable('webhook_endpoints').dropColumn('host').execute();
  },
};

export default migration;

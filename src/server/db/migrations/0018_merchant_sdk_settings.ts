import type { Kysely, Migration } from 'kysely';

/** 0018: the merchant's SDK settings, set through PATCH /v1/account and read by the SDK from /v1/sdk/config. */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('merchants')
      .addColumn('ip_lookup_urls', 'text', (col) => col.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('merchants')
      .addColumn('profiler_enabled', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('merchants').dropColumn('profiler_enabled').execute();
    await db.schema.alterTable('merchants').dropColumn('ip_lookup_urls').execute();
  },
};

export default migration;

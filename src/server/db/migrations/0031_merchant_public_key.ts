import type { Kysely, Migration } from 'kysely';

// The merchant's public key in plain, so the dashboard can show it
// (docs/decisions/the-public-key-on-developers.md). A public key is publishable: it is in every checkout
// page. Merchants created before this migration have none until they roll it; auth still finds a merchant by
// the key's hash.
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('merchants').addColumn('public_key', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('merchants').dropColumn('public_key').execute();
  },
};

export default migration;

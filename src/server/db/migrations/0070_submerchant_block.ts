import type { Kysely, Migration } from 'kysely';

/**
 * The operator's block of a submerchant, apart from its onboarding status (docs/decisions/submerchant-block.md):
 * `blocked_at` is set while it is blocked, with the operator's reason. Adding nullable columns rewrites no table.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('submerchants').addColumn('blocked_at', 'text').execute();
    await db.schema.alterTable('submerchants').addColumn('block_reason', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('submerchants').dropColumn('block_reason').execute();
    await db.schema.alterTable('submerchants').dropColumn('blocked_at').execute();
  },
};

export default migration;

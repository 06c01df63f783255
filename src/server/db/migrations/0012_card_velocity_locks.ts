import type { Kysely, Migration } from 'kysely';

/**
 * One row per (merchant, card hash), written by every charge of the card inside its transaction before it counts
 * the card's recent charges: on PostgreSQL the write holds the row until commit, so parallel charges of one
 * card count one after another instead of all seeing the old count.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('card_velocity_locks')
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('card_hash', 'text', (col) => col.notNull())
      .addColumn('last_charge_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('card_velocity_locks_pk', ['merchant_id', 'card_hash'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('card_velocity_locks').execute();
  },
};

export default migration;

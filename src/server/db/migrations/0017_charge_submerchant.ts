import type { Kysely, Migration } from 'kysely';

/** 0017: a charge may name the submerchant (marketplace seller) it is for; the list filters by it. */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('charges')
      .addColumn('submerchant_id', 'text', (col) => col.references('submerchants.id'))
      .execute();
    await db.schema
      .createIndex('charges_merchant_submerchant_created')
      .on('charges')
      .columns(['merchant_id', 'submerchant_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('charges_merchant_submerchant_created').execute();
    await db.schema.alterTable('charges').dropColumn('submerchant_id').execute();
  },
};

export default migration;

import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The risk step's reads of a card's and a device's recent charges lead with the card hash / visitor id, not the
 * merchant. With `(merchant_id, card_hash, created_at)`, PostgreSQL could also answer them from the list's
 * `(merchant_id, created_at)` (0032), and it did whenever its statistics underestimated the merchant's charges
 * (a table not yet analyzed, a merchant new since the last ANALYZE): the two plans then cost the same and the
 * narrower index won, reading every charge of the merchant in the window to find one card's few. The reads now
 * compare the merchant as a filter (history.ts), so only these indexes serve them, whatever the statistics; the
 * merchant rides along so that a count never reads the table. Replaces 0006's two indexes (same write cost).
 * `if exists` / `if not exists`: an operator with a big table may build them beforehand with CREATE INDEX
 * CONCURRENTLY on PostgreSQL (a plain build holds writes to charges meanwhile).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index if not exists charges_card_created on charges (card_hash, created_at, merchant_id)`.execute(
      db,
    );
    await sql`create index if not exists charges_visitor_created on charges (visitor_id, created_at, merchant_id)`.execute(
      db,
    );
    await sql`drop index if exists charges_merchant_card_created`.execute(db);
    await sql`drop index if exists charges_merchant_visitor_created`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`create index charges_merchant_card_created on charges (merchant_id, card_hash, created_at)`.execute(
      db,
    );
    await sql`create index charges_merchant_visitor_created on charges (merchant_id, visitor_id, created_at)`.execute(
      db,
    );
    await sql`drop index charges_card_created`.execute(db);
    await sql`drop index charges_visitor_created`.execute(db);
  },
};

export default migration;

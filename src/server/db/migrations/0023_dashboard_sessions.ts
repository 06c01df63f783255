import type { Kysely, Migration } from 'kysely';

// Signed-in dashboard sessions: only a hash of the cookie's token is stored.
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dashboard_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('dashboard_users.id').onDelete('cascade'),
      )
      .addColumn('csrf_token', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_seen_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('dashboard_sessions_user')
      .on('dashboard_sessions')
      .column('user_id')
      .execute();
    await db.schema
      .createIndex('dashboard_sessions_expires')
      .on('dashboard_sessions')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dashboard_sessions').execute();
  },
};

export default migration;

import { type Kysely, type Migration, Migrator } from 'kysely';

export class MigrationError extends Error {}

/** Applies every pending migration in name order; names carry a zero-padded sequence number. */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  migrations: Record<string, Migration>,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Migration ${failed} failed: ${(error as Error).message}`);
  }
  return (results ?? []).map((result) => result.migrationName);
}

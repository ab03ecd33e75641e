import { type Kysely, type Migration, Migrator } from 'kysely';
import * as initial from './migrations/001-initial.js';
import * as hardening from './migrations/003-hardening.js';

// Migrations are code, listed here in order. Kysely records each applied one in
// `kysely_migration` and takes a lock while migrating, so running `migrate` twice, or
// from two processes at once, applies each migration exactly once.
const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '003-hardening': hardening,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

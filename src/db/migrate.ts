import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import * as initial from './migrations/001-initial.js';

// Migrations are code, listed here in order. Kysely records each applied one in
// `kysely_migration` and takes a lock while migrating, so running `migrate` twice, or
// from two processes at once, applies each migration exactly once.
const migrations: Record<string, Migration> = {
  '001-initial': initial,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: await ownSchema(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * On PostgreSQL, the schema this connection works in. Without it Kysely looks for its
 * bookkeeping tables in every schema of the database, so a second schema (another test, or
 * another deployment sharing the database) that already has them makes it skip creating its
 * own and then fail on "relation kysely_migration_lock does not exist".
 */
async function ownSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

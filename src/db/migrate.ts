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
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: await migrationSchema(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * PostgreSQL: the schema the tables go to (the first of search_path). Kysely looks for its
 * migration tables in every schema unless told which: a database holding another copy of
 * the service in another schema (tests, or two shops side by side) would make it skip
 * creating its own tables and fail.
 */
async function migrationSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: the search_path names no schema that exists');
  return schema;
}

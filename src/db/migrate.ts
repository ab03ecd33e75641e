import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import * as initial from './migrations/001-initial.js';
import * as performance from './migrations/002-performance.js';
import * as hardening from './migrations/003-hardening.js';
import * as searchFolding from './migrations/004-search-folding.js';
import * as scopedKeys from './migrations/007-scoped-keys.js';
import * as changes from './migrations/008-changes.js';
import * as productCounts from './migrations/009-product-counts.js';
import * as webhooks from './migrations/010-webhooks.js';
import * as searchGrams from './migrations/011-search-grams.js';
import * as oneIndexPerOrder from './migrations/012-one-index-per-order.js';
import * as importJobs from './migrations/013-import-jobs.js';
import * as typeVersions from './migrations/014-type-versions.js';
import * as productListsVersion from './migrations/015-product-lists-version.js';
import * as importChanges from './migrations/016-import-changes.js';
import * as shops from './migrations/019-shops.js';
import * as searchWords from './migrations/018-search-words.js';
import * as restores from './migrations/020-restores.js';
import * as downloadLinks from './migrations/022-download-links.js';

// Migrations are code, listed here in order. Kysely records each applied one in
// `kysely_migration` and takes a lock while migrating, so running `migrate` twice, or
// from two processes at once, applies each migration exactly once.
const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-performance': performance,
  '003-hardening': hardening,
  '004-search-folding': searchFolding,
  '007-scoped-keys': scopedKeys,
  '008-changes': changes,
  '009-product-counts': productCounts,
  '010-webhooks': webhooks,
  '011-search-grams': searchGrams,
  '012-one-index-per-order': oneIndexPerOrder,
  '013-import-jobs': importJobs,
  '014-type-versions': typeVersions,
  '015-product-lists-version': productListsVersion,
  '016-import-changes': importChanges,
  '018-search-words': searchWords,
  '019-shops': shops,
  '020-restores': restores,
  '022-download-links': downloadLinks,
};

/** Every migration's name, in the order they apply. */
export const MIGRATION_NAMES = Object.keys(migrations);

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await (await migrator(db)).migrateToLatest();
    // Kysely reads the tables of every schema of the database before it migrates: another
    // schema or table dropped meanwhile (another shop's, a test's) fails that read with 3F000
    // or 42P01. Nothing was applied then (no result; PostgreSQL migrates in one transaction): read again.
    const code = (error as { code?: string } | undefined)?.code;
    if ((code === '3F000' || code === '42P01') && !results?.length && attempt < 5) continue;
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
}

/** Kysely's migrator over our migrations (migrateToLatest; tests step down and up with it). */
export async function migrator(db: Kysely<any>): Promise<Migrator> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told
  // which one: name the connection's own, so that two schemas of one database (tests,
  // or several shops on one server) never share them.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
    : undefined;
  return new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
}

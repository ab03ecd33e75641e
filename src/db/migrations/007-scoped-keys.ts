import { type Kysely, sql } from 'kysely';
import { ALL_SCOPES_TEXT } from '../../keys/scopes.js';

// Scoped, expiring keys (docs/API.md, "Keys and scopes"):
// - api_keys.scopes: the key's rights, space-separated in a fixed order. Keys made before
//   scopes existed get every one, as the contract says; new keys always name theirs.
// - api_keys.expires_at: unix seconds after which the key is refused (null: never). A roll
//   sets it on the old key to the end of the overlap.
// - projects.keys_version: bumped in the transaction of every change to the project's keys
//   (create, revoke, roll). Read with the project on every request, it tells each process
//   when its in-memory copy of the keys is stale (src/keys/checker.ts).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(ALL_SCOPES_TEXT))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'bigint').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('keys_version', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('keys_version').execute();
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
}

import { type Kysely, sql } from 'kysely';
import { autoId, autoIdType } from '../dialect.js';

// Many shops on one deployment (docs/API.md, "Admin API"; docs/ARCHITECTURE.md, "Project lives").
//
// - projects.incarnation: one life of a project, made at random when the project is created
//   (src/writes/project.ts). Every cache key, record-cache key, key-check entry and change-feed
//   cursor carries it, so that a project deleted and created again with the same id, in any
//   process and within the same second, never meets anything of its former life (its versions
//   restart at 1). Projects of before this migration share the legacy life '0', which is also
//   the life of a cursor made before it: their readers' cursors keep working.
// - admin_keys: keys that manage projects (create, list, delete), not any one project's. Only
//   the SHA-256 of a key is stored, as for project keys.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('incarnation', 'text', (c) => c.notNull().defaultTo(sql`'0'`))
    .execute();
  await db.schema
    .createTable('admin_keys')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_keys').execute();
  await db.schema.alterTable('projects').dropColumn('incarnation').execute();
}

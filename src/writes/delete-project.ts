import type { Storage } from '../db/connect.js';
import { projectTables } from '../db/project-tables.js';
import { forgetWrites } from '../db/written-versions.js';
import { type WriteContext, writeProject } from './write-project.js';

// The write "delete a project" (`DELETE /v2/projects/<id>`, `storefront project delete`):
// the project row and every row of it, in every table that has a project_id (read from the
// schema: tables later migrations add are reached unnamed), plus the webhook deliveries and
// attempts of its endpoints (they name an endpoint, not a project), in one write of the
// write unit. Its bump comes first, so the deletion queues behind the project's writers
// like any write; its keys stop at once (their rows are gone, and every process checks a
// key against the project row it read for the request). The project made again with the
// same id is another life (migration 019): nothing cached of this one can reach it.

/** Deletes the project; false when there was no such project (nothing written). */
export async function deleteProject(storage: Pick<Storage, 'db'>, projectId: string): Promise<boolean> {
  try {
    await writeProject(storage, projectId, removeEverything);
  } catch (error) {
    if (error instanceof NoSuchProject) return false;
    throw error;
  }
  forgetWrites(storage.db, projectId);
  return true;
}

class NoSuchProject extends Error {}

async function removeEverything(ctx: WriteContext): Promise<void> {
  if (ctx.versionBefore === undefined) throw new NoSuchProject();
  const { db, projectId } = ctx;
  const endpoints = db.selectFrom('webhook_endpoints').select('id').where('project_id', '=', projectId);
  const deliveries = db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', 'in', endpoints);
  await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', 'in', endpoints).execute();
  for (const table of await projectTables(db))
    await db
      .deleteFrom(table as 'products')
      .where('project_id', '=', projectId)
      .execute();
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}

import type { Kysely } from 'kysely';
import { projectTables } from '../../db/project-tables.js';
import type { Database } from '../../db/schema.js';
import { type Kind, RESOURCES } from '../registry.js';
import type { Project } from './repository.js';

// Whole projects, for the operator's CLI (`storefront project list`, `project delete`).

/** Every project with the number of its records of each kind, by id. */
export async function listProjectsWithCounts(
  db: Kysely<Database>,
): Promise<Array<Project & { counts: Record<Kind, number> }>> {
  const projects = await db.selectFrom('projects').selectAll().orderBy('id').execute();
  const counts = new Map(projects.map((p) => [p.id, Object.fromEntries(RESOURCES.map((r) => [r.kind, 0]))]));
  for (const { kind } of RESOURCES) {
    const rows = await db
      .selectFrom(kind)
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('project_id')
      .execute();
    for (const r of rows) {
      const of = counts.get(r.project_id);
      if (of) of[kind] = Number(r.n);
    }
  }
  return projects.map((p) => ({ ...p, counts: counts.get(p.id) as Record<Kind, number> }));
}

/** Removes the project and every row of it, in every table, in one transaction. */
export async function deleteProject(db: Kysely<Database>, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('projects').where('id', '=', id).returning('id').execute();
    if (gone.length === 0) return false;
    for (const table of await projectTables(trx))
      await trx
        .deleteFrom(table as 'products')
        .where('project_id', '=', id)
        .execute();
    return true;
  });
}

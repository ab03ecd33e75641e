import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type Kind, RESOURCES } from '../registry.js';
import type { Project } from './repository.js';

// Whole projects, for the operator's CLI (`storefront project list`, `project delete`; the
// deletion itself is a write of the write unit, src/writes/delete-project.ts).

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

import type { Kysely } from 'kysely';
import type { CountCache } from '../../cache/count-cache.js';
import type { Storage } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { keptCount } from '../products/counts.js';
import { RESOURCES } from '../registry.js';
import type { Project } from './repository.js';

// Each project's record counts for the admin list (GET /v2/projects/). Products come from their
// kept counts (one primary-key read); the other kinds are counted on their (project_id, …)
// index for the listed page's projects only, and kept in the shared count cache (an LRU) under
// the project's life and data_version: counted again only after a write of that project.

export type RecordCounts = Record<'products' | 'categories' | 'plans' | 'users' | 'orders', number>;

/** A project as the admin list shows it. */
export interface ListedProject {
  id: string;
  name: string;
  currency: string;
  created_at: number;
  counts: RecordCounts;
}

/** A page of the projects by id, each with its records' counts, and how many there are. */
export async function pageOfProjects(
  storage: Pick<Storage, 'db'>,
  cache: CountCache,
  page: number,
  perpage: number,
): Promise<{ data: ListedProject[]; total: number }> {
  const { db } = storage;
  const [rows, total] = await Promise.all([
    db
      .selectFrom('projects')
      .selectAll()
      .orderBy('id')
      .limit(perpage)
      .offset((page - 1) * perpage)
      .execute(),
    db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const data = [];
  for (const p of rows)
    data.push({
      id: p.id,
      name: p.name,
      currency: p.currency,
      created_at: Number(p.created_at),
      counts: await recordCounts(db, cache, p),
    });
  return { data, total: Number(total.n) };
}

export async function recordCounts(db: Kysely<Database>, cache: CountCache, project: Project): Promise<RecordCounts> {
  const counts: Record<string, number> = {};
  for (const { kind } of RESOURCES)
    counts[kind] = await cache.get(project, 'changes', `admin-count\u0000${kind}`, () =>
      kind === 'products'
        ? keptCount(db, project.id, undefined, true)
        : db
            .selectFrom(kind)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('project_id', '=', project.id)
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n)),
    );
  return counts as RecordCounts;
}

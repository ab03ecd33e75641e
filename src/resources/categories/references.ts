import type { ReferenceCheck } from '../descriptor.js';

/** Every parent of the file's categories exists, and no category is its own ancestor. */
export async function checkCategoryReferences(c: ReferenceCheck): Promise<void> {
  const cats = await c.db
    .selectFrom('categories')
    .select(['id', 'parent_id'])
    .where('project_id', '=', c.projectId)
    .execute();
  const parent = new Map(cats.map((x) => [x.id, x.parent_id]));
  for (const id of c.idsInFile()) {
    const p = parent.get(id);
    if (p === null || p === undefined) continue;
    if (!parent.has(p)) {
      if (!c.refused('categories', p)) c.problemAt(id, 'parent_id', `refers to category ${p}, which does not exist`);
    } else {
      const seen = new Set([id]);
      for (let q: number | null | undefined = p; q !== null && q !== undefined; q = parent.get(q)) {
        if (seen.has(q)) {
          c.problemAt(id, 'parent_id', 'makes a cycle: a category cannot be its own ancestor');
          break;
        }
        seen.add(q);
      }
    }
  }
}

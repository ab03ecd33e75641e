import type { Reads } from '../../db/reads.js';
import type { CategoryNode } from './schemas.js';

/**
 * Every category of a project as a forest: roots and each level sorted by name
 * (case-insensitively, then id). One query; the nesting is done here.
 */
export async function categoryForest(
  reads: Reads,
  projectId: string,
): Promise<{ roots: CategoryNode[]; byId: Map<number, CategoryNode> }> {
  const rows = await reads.general
    .selectFrom('categories')
    .select(['id', 'handle', 'name', 'parent_id'])
    .where('project_id', '=', projectId)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  const byId = new Map<number, CategoryNode>();
  for (const r of rows) byId.set(r.id, { ...r, subcategories: [] });
  const roots: CategoryNode[] = [];
  // Rows come sorted, so appending keeps every level sorted.
  for (const r of rows) {
    const node = byId.get(r.id)!;
    const parent = r.parent_id === null ? undefined : byId.get(r.parent_id);
    if (parent && !isAncestor(node, parent, byId)) parent.subcategories.push(node);
    else roots.push(node);
  }
  return { roots, byId };
}

// Imports refuse cycles; this guard keeps a damaged table from hanging the nesting.
function isAncestor(node: CategoryNode, of: CategoryNode, byId: Map<number, CategoryNode>): boolean {
  for (let p: CategoryNode | undefined = of; p; p = p.parent_id === null ? undefined : byId.get(p.parent_id)) {
    if (p === node) return true;
  }
  return false;
}

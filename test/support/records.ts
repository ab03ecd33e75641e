import type { CategoryRecord } from '../../src/resources/categories/record.js';
import type { PlanRecord } from '../../src/resources/plans/record.js';

// Builders for the records of the fixtures (shop.ts, mixed-catalog.ts): a record in one line
// of what tells it apart, the rest spelled out only where a fixture needs it.

/**
 * A plan with its id, name and status, its prices (no `prices` key at all when there are
 * none, as in a document that leaves them out) and any other fields.
 */
export function plan(
  id: number,
  name: string,
  status: NonNullable<PlanRecord['status']>,
  prices?: PlanRecord['prices'],
  more: Omit<PlanRecord, 'id' | 'name' | 'status' | 'prices'> = {},
): PlanRecord {
  return { id, name, status, ...(prices ? { prices } : {}), ...more };
}

/** A category with its id, handle, name and parent (null at the top) and any other fields. */
export function category(
  id: number,
  handle: string,
  name: string,
  parent_id: number | null,
  more: Pick<CategoryRecord, 'created_at' | 'updated_at'> = {},
): CategoryRecord {
  return { id, handle, name, parent_id, ...more };
}

import type { Selectable } from 'kysely';
import type { CategoryTable } from '../../db/schema.js';
import type { CategoryRecord } from './record.js';

export type CategoryRow = Selectable<CategoryTable>;

/**
 * A stored category as a record of an export. (The API shows categories as a tree without
 * times: repository.ts nests them.)
 */
export function categoryRecord(row: CategoryRow): CategoryRecord & { id: number } {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    parent_id: row.parent_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

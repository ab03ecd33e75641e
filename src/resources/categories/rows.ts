import type { Insertable } from 'kysely';
import type { CategoryTable } from '../../db/schema.js';
import { nameKey } from '../products/present.js';
import { type RecordRows, type RowContext, recordTimes } from '../descriptor.js';
import type { CategoryRecord } from './record.js';

export function categoryRows(c: CategoryRecord, id: number, ctx: RowContext): RecordRows {
  const { created_at, updated_at } = recordTimes(c, ctx);
  const row: Insertable<CategoryTable> & { id: number } = {
    project_id: ctx.projectId,
    id,
    handle: c.handle,
    name: c.name,
    name_key: nameKey(c.name),
    parent_id: c.parent_id ?? null,
    created_at,
    updated_at,
  };
  return { row, children: {} };
}

import type { Insertable } from 'kysely';
import type { CategoryTable } from '../../db/schema.js';
import { nameKey } from '../products/present.js';
import { type RecordRows, type RowContext, rowBase } from '../descriptor.js';
import type { CategoryRecord } from './record.js';

export function categoryRows(c: CategoryRecord, id: number, ctx: RowContext): RecordRows {
  const row: Insertable<CategoryTable> & { id: number } = {
    ...rowBase(id, c, ctx),
    handle: c.handle,
    name: c.name,
    name_key: nameKey(c.name),
    parent_id: c.parent_id ?? null,
  };
  return { row, children: {} };
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChildTable, RecordRows, ResourceDescriptor, Row } from '../resources/descriptor.js';
import { spreadsheetDamage } from './damage.js';

// An import's records against the stored ones, a batch at a time (batch-writer.ts): the
// stored rows of the batch's ids are read by primary key (one statement for the records, one
// per part table), and each record's rows compared with them, so that a record equal to the
// stored one is not written and a changed one says which fields change.

export interface StoredRows {
  row: Row;
  children: Partial<Record<ChildTable, Row[]>>;
}

/** Columns that are not compared: the keys, and the time of the change itself. */
const UNCOMPARED = new Set(['project_id', 'id', 'updated_at']);

/** The stored rows of the records `ids` of a resource, by id. */
export async function readStored(
  db: Kysely<Database>,
  projectId: string,
  resource: ResourceDescriptor,
  ids: number[],
): Promise<Map<number, StoredRows>> {
  const stored = new Map<number, StoredRows>();
  if (ids.length === 0) return stored;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the rows of any record table
  const any = db as Kysely<any>;
  const rows: Row[] = await any
    .selectFrom(resource.kind)
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  for (const row of rows) stored.set(Number(row.id), { row, children: {} });
  if (stored.size === 0) return stored;
  for (const child of resource.children) {
    const parts: Row[] = await any
      .selectFrom(child.table)
      .selectAll()
      .where('project_id', '=', projectId)
      .where(child.parent, 'in', [...stored.keys()])
      .execute();
    for (const part of parts) (stored.get(Number(part[child.parent]))!.children[child.table] ??= []).push(part);
  }
  return stored;
}

/**
 * The fields in which the record's rows differ from the stored ones (undefined: unchanged). A
 * record that gave no `created_at` keeps the stored one. `warn` hears of each changed text
 * that looks damaged by a spreadsheet.
 */
export function changedFields(
  resource: ResourceDescriptor,
  given: RecordRows,
  stored: StoredRows,
  warn: (field: string, message: string) => void,
): string[] | undefined {
  const fields = new Set<string>();
  const named = (resource.record as { properties?: Record<string, unknown> }).properties ?? {};
  if (given.createdByDefault && 'created_at' in stored.row) given.row.created_at = stored.row.created_at;
  let differs = false;
  for (const [column, value] of Object.entries(given.row)) {
    const was = stored.row[column];
    if (UNCOMPARED.has(column) || same(value, was)) continue;
    differs = true;
    // A derived column (name_key, search_text …) changes with the field it is made of.
    if (!(column in named)) continue;
    fields.add(column);
    const damage = typeof was === 'string' && typeof value === 'string' ? spreadsheetDamage(was, value) : undefined;
    if (damage) warn(column, damage);
  }
  for (const child of resource.children) {
    if (sameParts(given.children[child.table] ?? [], stored.children[child.table] ?? [], child.parent)) continue;
    differs = true;
    fields.add(child.field);
  }
  return differs ? [...fields] : undefined;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || text(a) === text(b);
}

/** A column's value as text: a row's number and a driver's string of it compare equal, a boolean as 0 or 1. */
function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? null;
}

/** The same parts, in any order; parts the file gave without their own id are new. */
function sameParts(given: Row[], stored: Row[], parent: string): boolean {
  if (given.length !== stored.length) return false;
  if (given.some((r) => 'id' in r && (r.id === undefined || r.id === null))) return false;
  const key = (row: Row) => {
    const columns = Object.keys(row).filter((c) => c !== 'project_id' && c !== parent);
    return JSON.stringify(columns.sort().map((c) => [c, text(row[c])]));
  };
  const a = given.map(key).sort();
  const b = stored.map(key).sort();
  return a.every((k, i) => k === b[i]);
}

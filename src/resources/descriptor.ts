import type { Kysely } from 'kysely';
import type { TSchema } from 'typebox';
import type { ChangeEntry, ChangeType } from '../changes/entry.js';
import type { Database } from '../db/schema.js';
import type { ErrorDetail } from '../errors.js';
import type { Scope } from '../keys/scopes.js';
import type { EventType } from '../webhooks/events.js';

// A resource as the import, the export and `storefront generate` see it: one descriptor per
// resource folder, gathered in registry.ts. The machinery (src/import/, src/export/,
// src/generate/) loops over the descriptors and knows no resource by name.

/** Tables of a resource's records: ids are per project, and an import may hand them out. */
export type RecordTable = 'categories' | 'products' | 'plans' | 'users' | 'orders';
/** Tables of the parts of a record (links, prices, subscriptions, items). */
export type ChildTable = 'product_categories' | 'plan_prices' | 'subscriptions' | 'order_items';

export type Row = Record<string, unknown>;

/** What turning a record into rows needs besides the record. */
export interface RowContext {
  projectId: string;
  /** the project's currency, for prices and orders that give none */
  currency: string;
  /** unix seconds: the created_at of records that give none */
  now: number;
}

/**
 * A record row's times, which a file may leave out: created now, updated when created. (A
 * row lists them itself: an object spread into a row literal made V8 keep every row as a
 * slow dictionary, 100 times the cost of a plain literal.)
 */
export function recordTimes(
  record: { created_at?: number; updated_at?: number },
  ctx: RowContext,
): { created_at: number; updated_at: number } {
  const created_at = record.created_at ?? ctx.now;
  return { created_at, updated_at: record.updated_at ?? created_at };
}

/** One record as rows: its own table's row and the rows of its parts, by table. */
export interface RecordRows {
  row: Row & { id: number; handle?: string };
  children: Partial<Record<ChildTable, Row[]>>;
  /** the record gave no created_at: an import keeps the stored one (src/import/stored.ts) */
  createdByDefault?: boolean;
}

/**
 * Rows of a table that hold a record's parts. A record written again replaces its parts:
 * the import deletes the stored ones (by `parent`) before inserting the new ones.
 */
export interface ChildSpec {
  table: ChildTable;
  /** the column naming the record the row belongs to */
  parent: string;
  /** the record's field that holds these parts (what an import reports as changed) */
  field: string;
  /**
   * The rows carry ids of their own (project_id, id), which a record may leave out: the
   * import gives them the next free id and upserts them, a later row of an id winning.
   */
  ownIds?: boolean;
}

/** What a resource's reference check sees once every record of the file is written. */
export interface ReferenceCheck {
  db: Kysely<Database>;
  projectId: string;
  /** at most this many problems are listed: a query need not return more */
  limit: number;
  /** the ids of this resource's records in the file, in the order they first appeared */
  idsInFile(): number[];
  /** a problem of this resource's record `id`, at its place in the file (or as "product 12") */
  problemAt(id: number, field: string, message: string): void;
  /**
   * Whether the file gave a record of `table` with this id that was refused (its own problem
   * is listed): a reference to it is not reported as well.
   */
  refused(table: RecordTable, id: number): boolean;
}

/**
 * Rows a resource keeps derived from its stored records (the products' kept counts), kept in
 * the writer's transaction. Every writer of the records begins a tally, takes stored records
 * out before it rewrites or deletes them, adds what it wrote, and finishes before commit.
 */
export interface DerivedRows {
  begin(trx: Kysely<Database>, projectId: string): DerivedTally;
}

/**
 * One write transaction's changes to the derived rows, added up in memory and written by
 * `finish` (once for a whole import: a statement per batch whose plan depends on the
 * planner's statistics was the slowest part of a large import).
 */
export interface DerivedTally {
  /** before the stored records `ids` are rewritten or deleted: takes them out (reads them by primary key) */
  remove(ids: number[]): Promise<void>;
  /** records just written, as their rows: adds them (may write some of what it holds) */
  add(written: readonly RecordRows[]): void | Promise<void>;
  /** writes what was tallied so far; the tally may go on after it */
  finish(): Promise<void>;
}

/** Who is shown records by id (presentByIds): what they are presented with, and what it may see. */
export interface Viewer {
  projectId: string;
  /** the project's currency (products show it) */
  currency: string;
  /** hidden products too: fetch_hidden=true with a key of products:read_hidden, webhooks, the export */
  includeHidden: boolean;
  /** plans of every status, not only the active ones the plans list holds: webhooks, the export */
  everyStatus: boolean;
  /** `record`: the import format (the export), where a resource's differs from the API's */
  form?: 'api' | 'record';
}

/** What deleting records did (docs/API.md, "Deleting records"). */
export interface Deletion {
  /** how many of the ids named a record (more than given when a category takes its subtree) */
  deleted: number;
  /** every change it made: the records deleted and those its cascade changed */
  changes: ChangeEntry[];
}

export interface ResourceDescriptor<R = never> {
  /** the table of its records, the section of a JSON document, the key of import counts */
  kind: RecordTable;
  /** the `type` of an NDJSON line and of the change feed, and the record's name in messages ("product 12") */
  type: ChangeType;
  /** the scope a key needs to read these records in the change feed (none: public) */
  readScope?: Scope;
  /** the TypeBox schema a record of the file is checked against */
  record: TSchema;
  /** records carry a `handle`, unique per project among this resource's records */
  handles?: boolean;
  children: readonly ChildSpec[];
  /** rows kept derived from the records, if any */
  derived?: DerivedRows;
  /** a problem the schema cannot express (checked after it), if any */
  check?(record: R): ErrorDetail | undefined;
  /** a valid record, with its id decided, as rows: the same for the import and generate */
  toRows(record: R, id: number, ctx: RowContext): RecordRows;
  /** checks the references of every record of the file (run after all are written) */
  checkReferences?(check: ReferenceCheck): Promise<void>;
  /**
   * The records `ids` (at most a few thousand) as this viewer sees them, fetched by primary
   * key: the change feed's page, the webhook events' bodies, the export's page. An id left
   * out is gone for the viewer: deleted, hidden, or (a plan) not active, and the feed shows
   * it as a `delete`.
   */
  presentByIds(db: Kysely<Database>, viewer: Viewer, ids: number[]): Promise<Map<number, unknown>>;
  /** the webhook event of a changed record (its body: presentByIds) and of a deleted one */
  events: { upsert: EventType; delete: EventType };
  /**
   * Deletes the records `ids` of the project with what the contract cascades (a deletion in
   * an import, `storefront delete`), inside the caller's transaction; unknown ids are no-ops.
   * `tally` is the write's tally of this resource's derived rows (the write unit's
   * `ctx.tally`), for a resource that keeps any: the deleted records leave it.
   */
  deleteRecords(trx: Kysely<Database>, projectId: string, ids: number[], tally?: DerivedTally): Promise<Deletion>;
}

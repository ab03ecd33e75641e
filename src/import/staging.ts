import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RecordRows, RecordTable, ResourceDescriptor } from '../resources/descriptor.js';
import { type Kind, RESOURCES } from '../resources/registry.js';
import { Places } from './places.js';
import type { Place, Problems } from './problems.js';

// The records of an import waiting to be written: a batch per kind, gathered until it is
// full. Memory stays bounded by two batches (one written while the next is gathered), not
// the file: a handle is checked here against the batch being gathered, and by the writer
// against the database, which holds every earlier batch; only each record's place is kept
// for the whole file (places.ts, 16 bytes a record).

/** Records of a kind written at once. */
export const BATCH = 500;

interface Gathering {
  /** id → rows; a record given twice in a batch keeps the later rows */
  pending: Map<number, RecordRows>;
  /** handle → id, within the batch being gathered */
  handles: Map<string, number>;
  places: Places;
  /** the given ids of the records refused (references to them are not reported again) */
  refused: Places;
}

export class Staging {
  /** records gathered and not yet taken, every kind */
  pendingCount = 0;
  /** by table: the next id to hand out */
  private readonly nextId = new Map<string, number>();
  private readonly gathered = new Map<Kind, Gathering>(
    RESOURCES.map((r) => [
      r.kind,
      { pending: new Map(), handles: new Map(), places: new Places(), refused: new Places() },
    ]),
  );

  constructor(private readonly problems: Problems) {}

  /** Adds a record's rows to its kind's batch; true when the batch is full. */
  stage(kind: Kind, rows: RecordRows, place: Place): boolean {
    const gathering = this.gathered.get(kind)!;
    gathering.places.add(rows.row.id, place);
    if (!gathering.pending.has(rows.row.id)) this.pendingCount++;
    gathering.pending.set(rows.row.id, rows);
    return gathering.pending.size >= BATCH;
  }

  /** The kind's batch, which is gathered anew from here. */
  take(kind: Kind): RecordRows[] {
    const gathering = this.gathered.get(kind)!;
    const staged = [...gathering.pending.values()];
    this.pendingCount -= gathering.pending.size;
    gathering.pending.clear();
    gathering.handles.clear();
    return staged;
  }

  places(kind: Kind): Places {
    return this.gathered.get(kind)!.places;
  }

  refuse(kind: Kind, id: number, place: Place): void {
    this.gathered.get(kind)!.refused.add(id, place);
  }

  refused(table: RecordTable, id: number): boolean {
    return this.gathered.get(table)?.refused.has(id) ?? false;
  }

  /** The given id, or the highest id in use (stored or seen in this file) plus one. */
  async idFor(db: Kysely<Database>, projectId: string, table: keyof Database, given?: number): Promise<number> {
    let next = this.nextId.get(table);
    if (next === undefined) {
      const row = await db
        .selectFrom(table as 'products')
        .select((eb) => eb.fn.max('id').as('max'))
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      next = Number(row?.max ?? 0) + 1;
    }
    const id = given ?? next;
    this.nextId.set(table, Math.max(next, id + 1));
    return id;
  }

  /**
   * A handle names one record per project and resource; a second record with it is refused.
   * Here against the batch being gathered; the writer checks the database.
   */
  claimHandle(resource: ResourceDescriptor, handle: string, id: number, place: Place): boolean {
    const handles = this.gathered.get(resource.kind)!.handles;
    const holder = handles.get(handle);
    if (holder !== undefined && holder !== id) {
      this.problems.add(
        resource.kind,
        place,
        'handle',
        `"${handle}" is already used by ${resource.type} ${holder} in this file`,
      );
      return false;
    }
    handles.set(handle, id);
    return true;
  }

  /** An id twice in one file: the later record would silently replace the earlier one. */
  reportRepeatedIds(kind: Kind): void {
    for (const [id, [first, ...later]] of this.places(kind).repeated())
      for (const place of later)
        this.problems.add(kind, place, 'id', `${id} is also the id of ${this.problems.formatPlace(kind, first)}`);
  }
}

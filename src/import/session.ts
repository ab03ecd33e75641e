import type { Transaction } from 'kysely';
import { recordAllChanged, recordChanges } from '../changes/record.js';
import { purgeOldDeletions } from '../changes/retention.js';
import { bumpDataVersion } from '../db/data-version.js';
import { isThreadedSqlite } from '../db/sqlite-threads-dialect.js';
import { StatisticsAsTablesGrow } from '../db/statistics.js';
import type { Database } from '../db/schema.js';
import type { ErrorDetail } from '../errors.js';
import type {
  ChildSpec,
  DerivedTally,
  RecordRows,
  ReferenceCheck,
  ResourceDescriptor,
} from '../resources/descriptor.js';
import { ProjectRecord } from '../resources/projects/record.js';
import { deleteRecords } from '../resources/deletion.js';
import { upsertProject } from '../resources/projects/repository.js';
import { type Kind, RESOURCES, resourceOf } from '../resources/registry.js';
import { Places } from './places.js';
import { checkRecord } from './validate.js';
import { deleteParts, insert, upsert } from './writes.js';

// One import: records arrive one at a time (from a JSON document or an NDJSON stream), are
// validated, given defaults and ids, and written in batches inside the caller's transaction.
// References between records are checked at the end, when every record is in. Problems are
// collected with each record's place; the caller rolls back when there are any.
//
// Memory stays bounded by two batches (one written while the next is gathered), not the
// file: a handle is checked against the batch being gathered and then against the database,
// which holds every earlier batch of the file (batches go on being written after a problem,
// so that later ones are still checked); only each record's place is kept for the whole file
// (places.ts, 16 bytes a record).
//
// What a record is and how it becomes rows is its resource's business (src/resources/*/
// descriptor.ts); this class only runs the steps, the same for every resource.
//
// A record `{ "id": 12, "deleted": true }` deletes (docs/API.md, "Deleting records"), in file
// order with the upserts: deletions are gathered in batches too, and a batch of one kind is
// written before anything of the other (upserts before a deletion, deletions before an
// upsert), so that "write, then delete" and "delete, then write again" both end as the file
// says. Every record written or deleted, and every one a deletion changed, goes into the
// change log (src/changes/record.ts) in the same transaction.

export type Place = number; // the index in a JSON list, or the line of an NDJSON file
export type PlaceFormat = (kind: Kind | 'project', place: Place) => string;

const BATCH = 500;
const MAX_PROBLEMS = 100;

/** One resource's part of the import: the batch being gathered and every record's place. */
interface Gathering {
  /** id → rows; a record given twice in a batch keeps the later rows */
  pending: Map<number, RecordRows>;
  /** handle → id, within the batch being gathered */
  handles: Map<string, number>;
  places: Places;
  /** the given ids of the records refused (references to them are not reported again) */
  refused: Places;
}

export class ImportSession {
  readonly problems: string[] = [];
  problemCount = 0;
  readonly counts = Object.fromEntries(RESOURCES.map((r) => [r.kind, 0])) as Record<Kind, number>;
  /** records deleted, by kind (a category's subtree included; plans: marked deleted) */
  readonly deleted = Object.fromEntries(RESOURCES.map((r) => [r.kind, 0])) as Record<Kind, number>;
  /** the ids of deletions not yet written, by kind */
  private readonly deletions = new Map<Kind, Set<number>>();
  private deletionCount = 0;
  private pendingCount = 0;
  private project?: ProjectRecord;
  private readonly now = Math.floor(Date.now() / 1000);
  /** by table: the next id to hand out */
  private readonly nextId = new Map<string, number>();
  /** by kind: the derived rows' tally of this import (written by finish) */
  private readonly tallies = new Map<Kind, DerivedTally>();
  /** the project did not exist before this import: a record is stored only if this import wrote it */
  private projectIsNew = false;
  /** by kind, while the project is new: the highest id written so far */
  private readonly highestWritten = new Map<Kind, number>();
  private statistics?: StatisticsAsTablesGrow;
  /** the batch being written (flush) */
  private writing: Promise<void> = Promise.resolve();
  /** whether a batch is written while the next is gathered (flush) */
  private readonly overlapWrites: boolean;
  private readonly gathered = new Map<Kind, Gathering>(
    RESOURCES.map((r) => [
      r.kind,
      { pending: new Map(), handles: new Map(), places: new Places(), refused: new Places() },
    ]),
  );

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly formatPlace: PlaceFormat,
    /** deletions older than this leave the change log (src/changes/retention.ts) */
    private readonly retentionDays: number,
  ) {
    this.overlapWrites = isThreadedSqlite(trx);
  }

  get projectId(): string | undefined {
    return this.project?.id;
  }

  /** the project's data_version before this import; undefined when the import creates it */
  versionBefore?: number;

  get ok(): boolean {
    return this.problemCount === 0;
  }

  /** Records a problem as `products[12].price: …` (JSON) or `line 40: price …` (NDJSON). */
  problem(kind: Kind | 'project', place: Place | string, field: string, message: string): void {
    this.problemCount++;
    if (this.problems.length >= MAX_PROBLEMS) return;
    const where = typeof place === 'string' ? place : this.formatPlace(kind, place);
    const byLine = where.startsWith('line ');
    this.problems.push(
      !field ? `${where}: ${message}` : byLine ? `${where}: ${field} ${message}` : `${where}.${field}: ${message}`,
    );
  }

  private report(kind: Kind | 'project', place: Place, details: ErrorDetail[]): void {
    for (const d of details) this.problem(kind, place, d.field, d.message);
  }

  async setProject(value: unknown, place: Place): Promise<boolean> {
    const details = checkRecord(ProjectRecord, value);
    if (details.length) {
      this.report('project', place, details);
      return false;
    }
    this.project = value as ProjectRecord;
    // A write first, as in every write transaction: it locks the project row (PostgreSQL), and
    // on SQLite takes the write lock before any read (a read first could not then write if
    // another process committed in between). Unknown projects are created by the upsert.
    await bumpDataVersion(this.trx, this.project.id);
    const stored = await this.trx
      .selectFrom('projects')
      .select(['currency', 'data_version'])
      .where('id', '=', this.project.id)
      .executeTakeFirst();
    // Where the change feed stood before this import (less the bump above): import.completed's cursor.
    this.versionBefore = stored && stored.data_version - 1;
    this.projectIsNew = stored === undefined;
    await upsertProject(this.trx, this.project);
    // Every product shows the project's currency: all of them changed.
    if (stored && stored.currency !== this.project.currency)
      await recordAllChanged(this.trx, this.project.id, 'product', 'products');
    await purgeOldDeletions(this.trx, this.project.id, this.retentionDays);
    return true;
  }

  async add(kind: Kind, value: unknown, place: Place): Promise<void> {
    if (typeof value === 'object' && value !== null && 'deleted' in value) return this.addDeletion(kind, value, place);
    const resource = resourceOf(kind);
    const details = checkRecord(resource.record, value);
    if (details.length === 0 && JSON.stringify(value).includes('\\u0000'))
      details.push({ field: '', message: 'must not contain NUL characters' });
    if (details.length) {
      const given = (value as { id?: unknown } | null)?.id;
      if (Number.isSafeInteger(given) && (given as number) > 0) this.refuse(kind, given as number, place);
      return this.report(kind, place, details);
    }
    const project = this.project;
    if (!project) return; // the project line was invalid: keep checking records, write nothing
    const record = value as { id?: number; handle?: string };
    const id = await this.idFor(kind, record.id);
    const refused = resource.check?.(value as never);
    if (refused) {
      this.refuse(kind, id, place);
      return this.problem(kind, place, refused.field, refused.message);
    }
    if (resource.handles && !this.claimHandle(resource, record.handle!, id, place)) return this.refuse(kind, id, place);
    const rows = resource.toRows(value as never, id, {
      projectId: project.id,
      currency: project.currency,
      now: this.now,
    });
    this.counts[kind]++;
    if (this.deletionCount > 0) await this.flushDeletions();
    const gathering = this.gathered.get(kind)!;
    gathering.places.add(id, place);
    if (!gathering.pending.has(id)) this.pendingCount++;
    gathering.pending.set(id, rows);
    if (gathering.pending.size >= BATCH) await this.flush(kind);
  }

  /** `{ "id": 12, "deleted": true }`: nothing else may be given; an unknown id is a no-op. */
  private async addDeletion(kind: Kind, value: object, place: Place): Promise<void> {
    const { id, deleted, ...rest } = value as { id?: unknown; deleted?: unknown };
    let ok = true;
    for (const field of Object.keys(rest)) {
      this.problem(kind, place, field, 'is not allowed in a deletion, which holds only "id" and "deleted": true');
      ok = false;
    }
    if (deleted !== true) {
      this.problem(kind, place, 'deleted', 'must be true (leave it out to write the record)');
      ok = false;
    }
    if (!Number.isSafeInteger(id) || (id as number) < 1) {
      this.problem(kind, place, 'id', 'must be the positive integer id of the record to delete');
      ok = false;
    }
    if (!ok || !this.project) return;
    if (this.pendingCount > 0) for (const r of RESOURCES) await this.flush(r.kind);
    let ids = this.deletions.get(kind);
    if (!ids) this.deletions.set(kind, (ids = new Set()));
    if (!ids.has(id as number)) this.deletionCount++;
    ids.add(id as number);
    if (this.deletionCount >= BATCH) await this.flushDeletions();
  }

  /** Deletes the gathered ids with their cascades, and logs every change they make. */
  private async flushDeletions(): Promise<void> {
    await this.written();
    for (const resource of RESOURCES) {
      const ids = this.deletions.get(resource.kind);
      if (!ids?.size) continue;
      const done = await deleteRecords(this.trx, this.project!.id, resource, [...ids]);
      this.deleted[resource.kind] += done.deleted;
      ids.clear();
    }
    this.deletionCount = 0;
  }

  private refuse(kind: Kind, id: number, place: Place): void {
    this.gathered.get(kind)!.refused.add(id, place);
  }

  /** The given id, or the highest id in use (stored or seen in this file) plus one. */
  private async idFor(table: keyof Database, given: number | undefined): Promise<number> {
    let next = this.nextId.get(table);
    if (next === undefined) {
      const row = await this.trx
        .selectFrom(table as 'products')
        .select((eb) => eb.fn.max('id').as('max'))
        .where('project_id', '=', this.project!.id)
        .executeTakeFirst();
      next = Number(row?.max ?? 0) + 1;
    }
    const id = given ?? next;
    this.nextId.set(table, Math.max(next, id + 1));
    return id;
  }

  /**
   * A handle names one record per project and resource; a second record with it is refused.
   * Here against the batch being gathered; flush() checks the database.
   */
  private claimHandle(resource: ResourceDescriptor, handle: string, id: number, place: Place): boolean {
    const handles = this.gathered.get(resource.kind)!.handles;
    const holder = handles.get(handle);
    if (holder !== undefined && holder !== id) {
      this.problem(
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

  /**
   * Writes the kind's gathered batch. On SQLite in threads (`storefront import`) only starts
   * it, once the batch before it is written: the next batch is read and checked while the
   * writer thread writes this one, instead of one waiting for the other (1M products:
   * 69 -> 64 s). A failed write then throws at the next flush or at finish(). PostgreSQL
   * waits for each batch: its server is busy 80 % of an import anyway, overlapping gained
   * nothing there (104 -> 111 s), and it left reads beside the import less of the machine.
   */
  private async flush(kind: Kind): Promise<void> {
    const batch = this.take(kind);
    await this.written();
    const writing = this.write(kind, batch);
    if (!this.overlapWrites) return writing;
    writing.catch(() => {}); // awaited by written()
    this.writing = writing;
  }

  /** Waits until every batch started is written. */
  private async written(): Promise<void> {
    await this.writing;
  }

  private take(kind: Kind): RecordRows[] {
    const gathering = this.gathered.get(kind)!;
    const staged = [...gathering.pending.values()];
    this.pendingCount -= gathering.pending.size;
    gathering.pending.clear();
    gathering.handles.clear();
    return staged;
  }

  private async write(kind: Kind, batch: RecordRows[]): Promise<void> {
    const resource = resourceOf(kind);
    const staged = resource.handles ? await this.withFreeHandles(resource, batch) : batch;
    if (staged.length === 0) return;
    const ids = staged.map((s) => s.row.id);
    const stored = this.maybeStored(kind, ids);
    const tally = this.tallyOf(resource);
    await tally?.remove(stored);
    await upsert(
      this.trx,
      kind,
      staged.map((s) => s.row),
    );
    for (const child of resource.children) await this.writeParts(child, staged, stored);
    tally?.add(staged);
    await recordChanges(
      this.trx,
      this.project!.id,
      ids.map((id) => ({ type: resource.type, id, action: 'upsert' })),
    );
    if (this.projectIsNew) this.highestWritten.set(kind, Math.max(this.highestWritten.get(kind) ?? 0, ...ids));
    this.statistics ??= new StatisticsAsTablesGrow(this.trx);
    await this.statistics.wrote([kind, ...resource.children.map((c) => c.table)], staged.length);
  }

  /**
   * The ids of a batch that may name a stored record. In a project this import created,
   * only records it wrote are stored: with ids ascending through the file (an export, a
   * generated file), none of a new batch is, and the batch needs no read.
   */
  private maybeStored(kind: Kind, ids: number[]): number[] {
    if (!this.projectIsNew) return ids;
    const highest = this.highestWritten.get(kind) ?? 0;
    return ids.filter((id) => id <= highest);
  }

  private tallyOf(resource: ResourceDescriptor): DerivedTally | undefined {
    if (!resource.derived) return undefined;
    let tally = this.tallies.get(resource.kind);
    if (!tally) this.tallies.set(resource.kind, (tally = resource.derived.begin(this.trx, this.project!.id)));
    return tally;
  }

  /** Replaces the stored parts of the batch's records with the parts the file gives. */
  private async writeParts(child: ChildSpec, staged: RecordRows[], stored: number[]): Promise<void> {
    if (stored.length) await deleteParts(this.trx, child.table, child.parent, this.project!.id, stored);
    const rows = staged.flatMap((s) => s.children[child.table] ?? []);
    if (!child.ownIds) return insert(this.trx, child.table, rows);
    for (const row of rows) row.id = await this.idFor(child.table, row.id as number | undefined);
    // An id given twice: the later row wins, as for records.
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    if (unique.length) await upsert(this.trx, child.table, unique);
  }

  /**
   * The batch without the records whose handle a stored record of another id holds, each
   * refused: a record stored before the import, or one of an earlier batch of this file.
   * (Moving a handle from one stored record to another takes two imports: first rename the
   * holder.)
   */
  private async withFreeHandles(resource: ResourceDescriptor, staged: RecordRows[]): Promise<RecordRows[]> {
    if (staged.length === 0) return staged;
    const held = await this.trx
      .selectFrom(resource.kind as 'products')
      .select(['id', 'handle'])
      .where('project_id', '=', this.project!.id)
      .where(
        'handle',
        'in',
        staged.map((s) => s.row.handle!),
      ) // one record a handle: claimHandle
      .execute();
    const holders = new Map(held.map((h) => [h.handle, h.id]));
    const taken = new Set<string>();
    const places = this.gathered.get(resource.kind)!.places;
    for (const s of staged) {
      const handle = s.row.handle!;
      const holder = holders.get(handle);
      if (holder === undefined || holder === s.row.id) continue;
      taken.add(handle);
      this.refuse(resource.kind, s.row.id, places.get(s.row.id)!);
      if (this.problems.length >= MAX_PROBLEMS)
        this.problemCount++; // not listed: spare the look-ups
      else {
        const where = places.get(holder) === undefined ? '' : ' in this file';
        this.problem(
          resource.kind,
          places.get(s.row.id)!,
          'handle',
          `"${handle}" is already used by ${resource.type} ${holder}${where}`,
        );
      }
    }
    return taken.size === 0 ? staged : staged.filter((s) => !taken.has(s.row.handle!));
  }

  /**
   * Writes what is left, then finds the ids given twice and checks every reference between
   * records, also when records had problems: a file is then fixed in one round. (References
   * to refused records are not reported: their own problem is.)
   */
  async finish(): Promise<void> {
    if (!this.project) return;
    for (const r of RESOURCES) await this.flush(r.kind);
    await this.flushDeletions(); // after every write
    for (const tally of this.tallies.values()) await tally.finish();
    for (const r of RESOURCES) this.reportRepeatedIds(r);
    for (const r of RESOURCES) await r.checkReferences?.(this.referenceCheck(r));
  }

  /** An id twice in one file: the later record would silently replace the earlier one. */
  private reportRepeatedIds(resource: ResourceDescriptor): void {
    for (const [id, [first, ...later]] of this.gathered.get(resource.kind)!.places.repeated())
      for (const place of later)
        this.problem(resource.kind, place, 'id', `${id} is also the id of ${this.formatPlace(resource.kind, first)}`);
  }

  private referenceCheck(resource: ResourceDescriptor): ReferenceCheck {
    const places = this.gathered.get(resource.kind)!.places;
    return {
      db: this.trx,
      projectId: this.project!.id,
      limit: MAX_PROBLEMS,
      idsInFile: () => [...places.toMap().keys()],
      problemAt: (id, field, message) => {
        if (this.problems.length >= MAX_PROBLEMS)
          this.problemCount++; // not listed: spare the look-up
        else this.problem(resource.kind, places.get(id) ?? `${resource.type} ${id}`, field, message);
      },
      refused: (table, id) => this.gathered.get(table)?.refused.has(id) ?? false,
    };
  }
}

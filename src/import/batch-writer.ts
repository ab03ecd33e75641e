import { StatisticsAsTablesGrow } from '../db/statistics.js';
import { deleteRecords } from '../writes/delete-records.js';
import type { ChildSpec, RecordRows, ResourceDescriptor } from '../resources/descriptor.js';
import { type Kind, RESOURCES, resourceOf } from '../resources/registry.js';
import type { WriteContext } from '../writes/write-project.js';
import type { Problems } from './problems.js';
import type { ImportReport } from './report.js';
import type { Staging } from './staging.js';
import { changedFields, readStored } from './stored.js';
import type { StagedFile } from './staged-file.js';
import { deleteParts, insert, upsert } from './writes.js';

// Writes an import's batches through the write unit: a batch of one kind is compared with
// the stored records (stored.ts: one read by primary key a batch; a record equal to the
// stored one is left alone, a changed one gets the import's time as updated_at), then the
// records that change are upserted on (project_id, id), their parts replaced, their derived
// rows tallied and the records declared changed. Deletions are written with their cascades (src/resources/deletion.ts).
// A staged import (staged-run.ts) compares outside the writer, against a read snapshot, and
// keeps what changes in its staging file (staged-file.ts); the merge then applies it here.

export class BatchWriter {
  /** by kind: the highest id stored before this import (read at its first batch) or written by it */
  private readonly highest = new Map<Kind, number>();
  private statistics: StatisticsAsTablesGrow;
  /** records deleted, by kind (a category's subtree included; plans: marked deleted) */
  readonly deleted = Object.fromEntries(RESOURCES.map((r) => [r.kind, 0])) as Record<Kind, number>;

  constructor(
    private ctx: WriteContext,
    private readonly staging: Staging,
    private readonly problems: Problems,
    private readonly report: ImportReport,
    /** the import's time: updated_at of the records it changes */
    private readonly now: number,
    /** a staged import's file: batches are compared and kept there, not written */
    private readonly file?: StagedFile,
  ) {
    this.statistics = new StatisticsAsTablesGrow(ctx.db);
  }

  /** A staged import's merge: from here, batches are applied through this write. */
  bind(ctx: WriteContext): void {
    this.ctx = ctx;
    this.statistics = new StatisticsAsTablesGrow(ctx.db);
  }

  async write(kind: Kind, batch: RecordRows[]): Promise<void> {
    const resource = resourceOf(kind);
    const free = resource.handles ? await this.withFreeHandles(resource, batch) : batch;
    if (free.length === 0) return;
    const ids = free.map((s) => s.row.id);
    const { staged, stored } = await this.sift(resource, free, await this.maybeStored(kind, ids));
    this.highest.set(kind, Math.max(this.highest.get(kind)!, ...ids));
    if (staged.length === 0) return;
    if (this.file) return this.file.put(resource, staged, stored);
    await this.apply(kind, staged, stored);
  }

  /** Writes the records of a batch that change, `stored` those of them stored before. */
  async apply(kind: Kind, staged: RecordRows[], stored: number[]): Promise<void> {
    const resource = resourceOf(kind);
    const tally = this.ctx.tally(resource);
    await tally?.remove(stored);
    await upsert(
      this.ctx.db,
      kind,
      staged.map((s) => s.row),
    );
    for (const child of resource.children) await this.writeParts(child, staged, stored);
    await tally?.add(staged);
    await this.ctx.changed(
      resource.type,
      staged.map((s) => s.row.id),
    );
    await this.statistics.wrote([kind, ...resource.children.map((c) => c.table)], staged.length);
  }

  /**
   * The records of the batch that change something (new ones, and stored ones that differ),
   * with the stored ids among them; each record is counted created, updated or unchanged.
   */
  private async sift(
    resource: ResourceDescriptor,
    batch: RecordRows[],
    maybeStored: number[],
  ): Promise<{ staged: RecordRows[]; stored: number[] }> {
    const { kind } = resource;
    const stored = await readStored(this.ctx.db, this.ctx.projectId, resource, maybeStored);
    const places = this.staging.places(kind);
    const staged: RecordRows[] = [];
    const storedIds: number[] = [];
    for (const rows of batch) {
      const id = rows.row.id;
      const was = stored.get(id);
      if (!was) {
        this.report.changes[kind].created++;
        staged.push(rows);
        continue;
      }
      const warn = (field: string, message: string) => this.report.warn(kind, places.get(id), field, message);
      const fields = changedFields(resource, rows, was, warn);
      if (!fields) {
        this.report.changes[kind].unchanged++;
        continue;
      }
      this.report.updated(kind, fields);
      if ('updated_at' in rows.row) rows.row.updated_at = this.now;
      staged.push(rows);
      storedIds.push(id);
    }
    return { staged, stored: storedIds };
  }

  async delete(kind: Kind, ids: number[]): Promise<void> {
    this.deleted[kind] += await deleteRecords(this.ctx, resourceOf(kind), ids);
  }

  /**
   * The ids of a batch that may name a stored record: none above the highest id stored
   * before the import or written by it. Into a new or empty project (an upload into a
   * project created for it), or appending, with ids ascending through the file (an export,
   * a generated file), no id of a new batch is, and the batch needs no read.
   */
  private async maybeStored(kind: Kind, ids: number[]): Promise<number[]> {
    let highest = this.highest.get(kind);
    if (highest === undefined) {
      const { db, projectId } = this.ctx;
      const row = await db
        .selectFrom(kind as 'products')
        .select((eb) => eb.fn.max('id').as('max'))
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      this.highest.set(kind, (highest = Number(row?.max ?? 0)));
    }
    return ids.filter((id) => id <= highest);
  }

  /** Replaces the stored parts of the batch's records with the parts the file gives. */
  private async writeParts(child: ChildSpec, staged: RecordRows[], stored: number[]): Promise<void> {
    const { db, projectId } = this.ctx;
    if (stored.length) await deleteParts(db, child.table, child.parent, projectId, stored);
    const rows = staged.flatMap((s) => s.children[child.table] ?? []);
    if (!child.ownIds) return insert(db, child.table, rows);
    for (const row of rows) row.id = await this.staging.idFor(db, projectId, child.table, row.id as number | undefined);
    // An id given twice: the later row wins, as for records.
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    if (unique.length) await upsert(db, child.table, unique);
  }

  /**
   * The batch without the records whose handle a stored record of another id holds, each
   * refused: a record stored before the import, or one of an earlier batch of this file.
   * (Moving a handle from one stored record to another takes two imports: first rename the
   * holder.)
   */
  private async withFreeHandles(resource: ResourceDescriptor, staged: RecordRows[]): Promise<RecordRows[]> {
    const held = await this.ctx.db
      .selectFrom(resource.kind as 'products')
      .select(['id', 'handle'])
      .where('project_id', '=', this.ctx.projectId)
      .where(
        'handle',
        'in',
        staged.map((s) => s.row.handle!),
      ) // one record a handle: Staging.claimHandle
      .execute();
    const holders = new Map(held.map((h) => [h.handle, h.id]));
    // Staged: the snapshot holds none of this file's earlier batches; the staging file does.
    this.file?.heldByEarlierBatches(
      resource,
      staged.map((s) => s.row.handle!),
      holders,
    );
    const taken = new Set<string>();
    const places = this.staging.places(resource.kind);
    for (const s of staged) {
      const handle = s.row.handle!;
      const holder = holders.get(handle);
      if (holder === undefined || holder === s.row.id) continue;
      taken.add(handle);
      const place = places.get(s.row.id)!;
      this.staging.refuse(resource.kind, s.row.id, place);
      if (this.problems.full)
        this.problems.count++; // not listed: spare the look-ups
      else {
        const where = places.get(holder) === undefined ? '' : ' in this file';
        this.problems.add(
          resource.kind,
          place,
          'handle',
          `"${handle}" is already used by ${resource.type} ${holder}${where}`,
        );
      }
    }
    return taken.size === 0 ? staged : staged.filter((s) => !taken.has(s.row.handle!));
  }
}

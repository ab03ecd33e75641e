import { overlapsBatches } from '../db/write-overlap.js';
import type { ReferenceCheck, ResourceDescriptor } from '../resources/descriptor.js';
import { ProjectRecord } from '../resources/projects/record.js';
import { saveProject } from '../writes/project.js';
import { type Kind, RESOURCES, resourceOf } from '../resources/registry.js';
import type { WriteContext } from '../writes/write-project.js';
import { BatchWriter } from './batch-writer.js';
import { MAX_PROBLEMS, type Place, type PlaceFormat, Problems } from './problems.js';
import { ImportReport } from './report.js';
import { BATCH, Staging } from './staging.js';
import type { StagedFile } from './staged-file.js';
import { checkRecord } from './validate.js';

// One import: records arrive one at a time (from a JSON document or an NDJSON stream), are
// checked, given defaults and ids, staged (staging.ts) and written in batches (batch-writer.ts)
// through the write unit the caller opened. References between records are checked at the
// end, when every record is in. Problems are collected with each record's place; the caller
// rolls back when there are any. Without a write (the file names no valid project) the
// records are only checked, so that every problem is still reported in one round.
//
// What a record is and how it becomes rows is its resource's business (src/resources/*/
// descriptor.ts); this class only runs the steps, the same for every resource.
//
// A record `{ "id": 12, "deleted": true }` deletes (docs/API.md, "Deleting records"), in file
// order with the upserts: deletions are gathered in batches too, and a batch of one kind is
// written before anything of the other (upserts before a deletion, deletions before an
// upsert), so that "write, then delete" and "delete, then write again" both end as the file
// says.

export type { Place, PlaceFormat } from './problems.js';

/** What a staged import cannot stage (staged-run.ts): it runs whole inside the write instead. */
export class NotStaged extends Error {}

export class ImportSession {
  readonly problems: Problems;
  /** what the import changes, and the warnings (src/import/report.ts) */
  readonly report: ImportReport;
  private readonly staging: Staging;
  private readonly writer?: BatchWriter;
  /** the ids of deletions not yet written, by kind */
  private readonly deletions = new Map<Kind, Set<number>>();
  private deletionCount = 0;
  private project?: ProjectRecord;
  /** staged: the file's project record, written when the merge begins */
  private projectToSave?: ProjectRecord;
  private readonly now = Math.floor(Date.now() / 1000);
  /** the batch being written (flush) */
  private writing: Promise<void> = Promise.resolve();
  /** whether a batch is written while the next is gathered (src/db/write-overlap.ts) */
  private readonly overlapWrites: boolean;

  constructor(
    formatPlace: PlaceFormat,
    private ctx?: WriteContext,
    /** a staged import (staged-run.ts): `ctx` reads a snapshot, and batches are kept here until merge() */
    private readonly file?: StagedFile,
  ) {
    this.problems = new Problems(formatPlace);
    this.report = new ImportReport(formatPlace);
    this.staging = new Staging(this.problems);
    this.writer = ctx && new BatchWriter(ctx, this.staging, this.problems, this.report, this.now, file);
    this.overlapWrites = ctx !== undefined && overlapsBatches(ctx.db);
  }

  get projectId(): string | undefined {
    return this.project?.id;
  }

  /** the write's transaction (undefined: the records are only checked) */
  get db(): WriteContext['db'] | undefined {
    return this.ctx?.db;
  }

  /** records written (created or changed), by kind */
  get counts(): Record<Kind, number> {
    const { changes } = this.report;
    return Object.fromEntries(
      RESOURCES.map((r) => [r.kind, changes[r.kind].created + changes[r.kind].updated]),
    ) as Record<Kind, number>;
  }

  get ok(): boolean {
    return this.problems.count === 0;
  }

  /** records deleted, by kind (a category's subtree included; plans: marked deleted) */
  get deleted(): Record<Kind, number> {
    return this.writer?.deleted ?? (Object.fromEntries(RESOURCES.map((r) => [r.kind, 0])) as Record<Kind, number>);
  }

  /** The project record; it is written when it is the write's project (checked only otherwise). */
  async setProject(value: unknown, place: Place): Promise<boolean> {
    const details = checkRecord(ProjectRecord, value);
    if (details.length) {
      this.problems.addAll('project', place, details);
      return false;
    }
    const project = value as ProjectRecord;
    if (!this.ctx || project.id !== this.ctx.projectId) return false;
    this.project = project;
    if (this.file) this.projectToSave = project;
    else await saveProject(this.ctx, project);
    return true;
  }

  /** The write's project as it is stored, for a file that names none (a CSV): nothing of it is written. */
  useProject(project: ProjectRecord): void {
    if (this.ctx && project.id === this.ctx.projectId) this.project = project;
  }

  async add(kind: Kind, value: unknown, place: Place): Promise<void> {
    if (typeof value === 'object' && value !== null && 'deleted' in value) return this.addDeletion(kind, value, place);
    const resource = resourceOf(kind);
    const details = checkRecord(resource.record, value, this.project?.currency);
    if (details.length === 0 && JSON.stringify(value).includes('\\u0000'))
      details.push({ field: '', message: 'must not contain NUL characters' });
    if (details.length) {
      const given = (value as { id?: unknown } | null)?.id;
      if (Number.isSafeInteger(given) && (given as number) > 0) this.staging.refuse(kind, given as number, place);
      return this.problems.addAll(kind, place, details);
    }
    const { project, ctx } = this;
    if (!project || !ctx) return; // no valid project: keep checking records, write nothing
    const record = value as { id?: number; handle?: string };
    const id = await this.staging.idFor(ctx.db, project.id, kind, record.id);
    const refused = resource.check?.(value as never);
    if (refused) {
      this.staging.refuse(kind, id, place);
      return this.problems.add(kind, place, refused.field, refused.message);
    }
    if (resource.handles && !this.staging.claimHandle(resource, record.handle!, id, place))
      return this.staging.refuse(kind, id, place);
    const rows = resource.toRows(value as never, id, {
      projectId: project.id,
      currency: project.currency,
      now: this.now,
    });
    if ((value as { created_at?: number }).created_at === undefined) rows.createdByDefault = true;
    if (this.deletionCount > 0) await this.flushDeletions();
    if (this.staging.stage(kind, rows, place)) await this.flush(kind);
  }

  /** `{ "id": 12, "deleted": true }`: nothing else may be given; an unknown id is a no-op. */
  private async addDeletion(kind: Kind, value: object, place: Place): Promise<void> {
    const { id, deleted, ...rest } = value as { id?: unknown; deleted?: unknown };
    let ok = true;
    for (const field of Object.keys(rest)) {
      this.problems.add(kind, place, field, 'is not allowed in a deletion, which holds only "id" and "deleted": true');
      ok = false;
    }
    if (deleted !== true) {
      this.problems.add(kind, place, 'deleted', 'must be true (leave it out to write the record)');
      ok = false;
    }
    if (!Number.isSafeInteger(id) || (id as number) < 1) {
      this.problems.add(kind, place, 'id', 'must be the positive integer id of the record to delete');
      ok = false;
    }
    if (!ok || !this.project) return;
    // Staged batches are compared against the snapshot, which a deletion before them would change.
    if (this.file) throw new NotStaged('a deletion');
    if (this.staging.pendingCount > 0) for (const r of RESOURCES) await this.flush(r.kind);
    let ids = this.deletions.get(kind);
    if (!ids) this.deletions.set(kind, (ids = new Set()));
    if (!ids.has(id as number)) this.deletionCount++;
    ids.add(id as number);
    if (this.deletionCount >= BATCH) await this.flushDeletions();
  }

  /** Deletes the gathered ids with their cascades. */
  private async flushDeletions(): Promise<void> {
    await this.writing;
    for (const resource of RESOURCES) {
      const ids = this.deletions.get(resource.kind);
      if (!ids?.size) continue;
      await this.writer!.delete(resource.kind, [...ids]);
      ids.clear();
    }
    this.deletionCount = 0;
  }

  /**
   * Writes the kind's gathered batch; where batches overlap, only starts it, once the batch
   * before it is written, and a failed write then throws at the next flush or at finish().
   */
  private async flush(kind: Kind): Promise<void> {
    const batch = this.staging.take(kind);
    await this.writing;
    if (batch.length === 0) return;
    const writing = this.writer!.write(kind, batch);
    if (!this.overlapWrites) return writing;
    writing.catch(() => {}); // awaited by the next flush
    this.writing = writing;
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
    for (const r of RESOURCES) this.staging.reportRepeatedIds(r.kind);
    if (!this.file) await this.wrote();
  }

  /**
   * A staged import's merge, through the write `ctx`: the project record, every kept batch
   * in file order, then what finish() leaves to the write (counts, reference checks).
   */
  async merge(ctx: WriteContext): Promise<void> {
    this.ctx = ctx;
    this.writer!.bind(ctx);
    if (this.projectToSave) await saveProject(ctx, this.projectToSave);
    for (let seq = 1; seq <= this.file!.batches; seq++) {
      const { kind, staged, stored } = this.file!.batch(seq);
      await this.writer!.apply(kind, staged, stored);
    }
    await this.wrote();
  }

  /** Once every batch is written: the counts, and every reference between records checked. */
  private async wrote(): Promise<void> {
    const counts = this.counts;
    for (const r of RESOURCES) {
      this.report.changes[r.kind].deleted = this.deleted[r.kind];
      this.ctx!.count(r.kind, 'counts', counts[r.kind]);
    }
    for (const r of RESOURCES) await r.checkReferences?.(this.referenceCheck(r));
  }

  private referenceCheck(resource: ResourceDescriptor): ReferenceCheck {
    const places = this.staging.places(resource.kind);
    return {
      db: this.ctx!.db,
      projectId: this.project!.id,
      limit: MAX_PROBLEMS,
      idsInFile: () => [...places.toMap().keys()],
      problemAt: (id, field, message) => {
        if (this.problems.full)
          this.problems.count++; // not listed: spare the look-up
        else this.problems.add(resource.kind, places.get(id) ?? `${resource.type} ${id}`, field, message);
      },
      refused: (table, id) => this.staging.refused(table, id),
    };
  }
}

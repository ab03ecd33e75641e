import type { Kysely } from 'kysely';
import { purgeOldDeletions } from '../changes/retention.js';
import type { ChangeAction, ChangeType } from '../changes/entry.js';
import { changesRetentionDays } from '../config.js';
import type { Storage } from '../db/connect.js';
import { bumpDataVersion, dataVersionOf } from '../db/data-version.js';
import { noteWrite } from '../db/written-versions.js';
import type { Database } from '../db/schema.js';
import { refreshStatistics } from '../db/statistics.js';
import type { DerivedTally, ResourceDescriptor } from '../resources/descriptor.js';
import { type Kind, RESOURCE_TABLES } from '../resources/registry.js';
import { enqueueEvents, wakeDelivery } from '../webhooks/outbox.js';
import { ChangeSet, type TypeChange } from './change-set.js';
import { type BatchCounts, eventsOf, noCounts } from './events.js';
import { setTypeVersions } from './type-versions.js';

import { writeBegan, writeEnded } from './open-writes.js';
// The one write path (docs/ARCHITECTURE.md, "The write path"). Every change to a project's
// records runs here, in this order, in one transaction:
//
//  1. the project's data_version is bumped first: on PostgreSQL that locks the project row
//     until commit, so the writers of one project queue in one order (project, then its rows)
//     and never deadlock, and the bumped value is the seq of the change log (src/changes/);
//  2. `work` writes, and declares what it changed (`changed`) and the derived rows it tallies;
//  3. the tallies are written, the change log gets every declared change, each changed
//     record type's version takes this write's data_version (type-versions.ts: the caches'
//     keys), and the webhook outbox the events they cause (src/writes/events.ts), so the
//     events commit exactly with the change;
//  4. after the commit, this process's delivery worker is woken, and after a batch the
//     planners' statistics are refreshed.
//
// The summary it returns says what changed, by record type and (while few) by id.

export interface WriteContext {
  /** the transaction: every statement of the write goes through it */
  readonly db: Kysely<Database>;
  readonly projectId: string;
  /** the project's data_version before this write; undefined when the write creates the project */
  readonly versionBefore: number | undefined;
  /** declares records this write changed (an upsert: the record now exists; a delete: it is gone) */
  changed(type: ChangeType, ids: readonly number[], action?: ChangeAction): Promise<void>;
  /**
   * declares products changed in place: nothing any list filters, orders or counts by (only
   * their stock), so the products lists' totals stay valid (type-versions.ts)
   */
  changedInPlace(type: 'product', ids: readonly number[]): Promise<void>;
  /** declares that every product changed (a new currency, which each of them shows) */
  changedAllProducts(): Promise<void>;
  /** the resource's tally of derived rows for this write (written before commit), if it keeps any */
  tally(resource: ResourceDescriptor): DerivedTally | undefined;
  /** a batch: adds to the counts `import.completed` reports */
  count(kind: Kind, how: keyof BatchCounts, n: number): void;
}

export interface WriteOptions {
  /**
   * `update` (the default): one event per changed record. `batch` (an import, a deletion,
   * generate): `import.completed` as well, deletions older than the retention time leave the
   * change log first, and the statistics are refreshed after the commit.
   */
  kind?: 'update' | 'batch';
  /** a batch: deletions older than this leave the change log (default CHANGES_RETENTION_DAYS) */
  retentionDays?: number;
}

export interface WriteSummary {
  projectId: string;
  /** the project's data_version this write committed (the seq of its change-log entries) */
  version: number;
  /** what changed, by record type */
  changed: ReadonlyMap<ChangeType, TypeChange>;
}

export async function writeProject<T>(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  work: (ctx: WriteContext) => Promise<T>,
  options: WriteOptions = {},
): Promise<{ value: T; summary: WriteSummary }> {
  const batch = options.kind === 'batch';
  if (!batch) writeBegan();
  const done = await storage.db
    .transaction()
    .execute(async (trx) => {
      const bumped = await bumpDataVersion(trx, projectId);
      const versionBefore = bumped === undefined ? undefined : bumped - 1;
      if (batch) await purgeOldDeletions(trx, projectId, options.retentionDays ?? changesRetentionDays());
      const changes = new ChangeSet(trx, projectId);
      const tallies = new Map<Kind, DerivedTally>();
      const counts = noCounts();
      const ctx: WriteContext = {
        db: trx,
        projectId,
        versionBefore,
        changed: (type, ids, action = 'upsert') => changes.add(type, ids, action),
        changedInPlace: (type, ids) => changes.add(type, ids, 'upsert', true),
        changedAllProducts: () => changes.addAll('product'),
        tally(resource) {
          if (!resource.derived) return undefined;
          let tally = tallies.get(resource.kind);
          if (!tally) tallies.set(resource.kind, (tally = resource.derived.begin(trx, projectId)));
          return tally;
        },
        count(kind, how, n) {
          counts[how][kind] += n;
        },
      };
      const value = await work(ctx);
      for (const tally of tallies.values()) await tally.finish();
      await changes.flush();
      await setTypeVersions(trx, projectId, changes.types().keys(), changes.moved());
      await enqueueEvents(trx, projectId, () =>
        eventsOf(trx, projectId, changes, batch ? { counts, versionBefore } : undefined),
      );
      // A write that created its project bumped nothing: the version is the new row's.
      const version = bumped ?? (await dataVersionOf(trx, projectId));
      return { value, summary: { projectId, version, changed: changes.types() } };
    })
    .finally(() => !batch && writeEnded());
  noteWrite(storage.db, projectId, done.summary.version);
  wakeDelivery();
  // Once committed: the planner knows the new sizes before the first request after it. The
  // change log too: every list page reads its products' versions there by primary key, and
  // PostgreSQL, believing a project's log held a row or two, scanned all of it by another
  // index instead (docs/PERFORMANCE.md, "A live shop", PostgreSQL stock updates).
  if (batch) await refreshStatistics(storage.db, [...RESOURCE_TABLES, 'changes']);
  return done;
}

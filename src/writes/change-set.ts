import type { Kysely } from 'kysely';
import { recordAllChanged, recordChanges } from '../changes/record.js';
import type { ChangeAction, ChangeEntry, ChangeType } from '../changes/entry.js';
import type { Database } from '../db/schema.js';

// What one write changed, as the write declares it (WriteContext.changed): written to the
// change log in large statements as it grows, and kept, while it is small, record by record,
// for the per-record webhook events and for whoever reads the write's summary (the caches).

/** Entries written to the change log at once (its statements take ids in chunks of this). */
const FLUSH = 10_000;

/** Records listed one by one in a summary: past this, a type says only that it changed. */
export const LISTED = 1_000;

/** What a write changed of one record type. */
export interface TypeChange {
  /** the records changed, with what happened to each; undefined: more than LISTED, or every record (`all`) */
  records?: ReadonlyMap<number, ChangeAction>;
  /** every record of the type changed (the project's currency, which every product shows) */
  all: boolean;
}

export class ChangeSet {
  private pending: ChangeEntry[] = [];
  private readonly byType = new Map<ChangeType, { records?: Map<number, ChangeAction>; all: boolean }>();
  private listed = 0;
  /** types with a change other than in place (src/writes/type-versions.ts) */
  private readonly movedTypes = new Set<ChangeType>();

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly projectId: string,
  ) {}

  async add(type: ChangeType, ids: readonly number[], action: ChangeAction, inPlace = false): Promise<void> {
    if (ids.length === 0) return;
    if (!inPlace) this.movedTypes.add(type);
    const of = this.of(type);
    for (const id of ids) {
      this.pending.push({ type, id, action });
      if (!of.records) continue;
      if (!of.records.has(id)) this.listed++;
      of.records.set(id, action);
    }
    if (this.listed > LISTED) for (const t of this.byType.values()) t.records = undefined;
    if (this.pending.length >= FLUSH) await this.flush();
  }

  /** Every record of the type changed: one statement over its table. */
  async addAll(type: 'product'): Promise<void> {
    await this.flush();
    await recordAllChanged(this.trx, this.projectId, type, 'products');
    this.movedTypes.add(type);
    const of = this.of(type);
    of.all = true;
    of.records = undefined;
  }

  /** Writes what is pending to the change log. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    await recordChanges(this.trx, this.projectId, entries);
  }

  /** The types with a change that a list can show by where the record is (not in place). */
  moved(): ReadonlySet<ChangeType> {
    return this.movedTypes;
  }

  /** Each changed type, with its records while they are few enough to list. */
  types(): ReadonlyMap<ChangeType, TypeChange> {
    return this.byType;
  }

  /** Every changed record, when none of the types is too large to list (else undefined). */
  records(): { type: ChangeType; id: number; action: ChangeAction }[] | undefined {
    const out = [];
    for (const [type, change] of this.byType) {
      if (!change.records) return undefined;
      for (const [id, action] of change.records) out.push({ type, id, action });
    }
    return out;
  }

  private of(type: ChangeType) {
    let of = this.byType.get(type);
    if (!of) this.byType.set(type, (of = { records: this.listed > LISTED ? undefined : new Map(), all: false }));
    return of;
  }
}

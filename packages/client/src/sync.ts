import type { Api } from './api.js';
import { type ChangesOptions, DEFAULT_CHANGE_TYPES, changeFeed } from './changes.js';
import { CursorGoneError } from './errors.js';
import type { ChangeRecords, ChangeType } from './records.js';

// client.sync(mirror): keeps a local copy of a project's records up to date from the change
// feed, and says what the call added, changed and removed. Without a cursor (or when the
// server answers 410 to an old one) it reads the whole feed, which gives exactly what the
// lists hold, and removes from the mirror whatever the feed no longer has: a full resync.

/** `product:12`: one record of the mirror. */
export type MirrorKey = `${ChangeType}:${number}`;
/** The local copy: records by `type:id`. A plain Map, so it can be filled, saved and read back freely. */
export type Mirror = Map<MirrorKey, ChangeRecords[ChangeType]>;

export type SyncOptions = Omit<ChangesOptions, 'limit'>;

export type SyncAdded = { [T in ChangeType]: { type: T; id: number; record: ChangeRecords[T] } }[ChangeType];
export type SyncChanged = {
  [T in ChangeType]: { type: T; id: number; record: ChangeRecords[T]; previous: ChangeRecords[T] };
}[ChangeType];
export type SyncRemoved = { [T in ChangeType]: { type: T; id: number; previous: ChangeRecords[T] } }[ChangeType];

export interface SyncResult {
  /** records the mirror did not hold */
  added: SyncAdded[];
  /** records whose JSON differs from the mirror's copy, with that copy as `previous` */
  changed: SyncChanged[];
  /** records deleted, or hidden from a public reader, with the mirror's last copy */
  removed: SyncRemoved[];
  /** pass it as `since` next time */
  cursor: string;
  /** the cursor given was too old (410): the mirror was rebuilt from the whole feed */
  resynced: boolean;
}

export function mirrorKey(type: ChangeType, id: number): MirrorKey {
  return `${type}:${id}`;
}

/** The mirror's records of one type, e.g. `recordsOf(mirror, 'product')`. */
export function recordsOf<T extends ChangeType>(mirror: Mirror, type: T): ChangeRecords[T][] {
  const prefix = `${type}:`;
  const out: ChangeRecords[T][] = [];
  for (const [key, record] of mirror) if (key.startsWith(prefix)) out.push(record as ChangeRecords[T]);
  return out;
}

type Touched = { type: ChangeType; id: number; previous: ChangeRecords[ChangeType] | undefined };

export async function syncMirror(api: Api, mirror: Mirror, options: SyncOptions = {}): Promise<SyncResult> {
  // The state of each record touched before this call touched it: the result is the net
  // effect of the call, however many times a record changed during it.
  const touched = new Map<MirrorKey, Touched>();
  const touch = (type: ChangeType, id: number, key: MirrorKey) => {
    if (!touched.has(key)) touched.set(key, { type, id, previous: mirror.get(key) });
  };
  let since = options.since;
  let resynced = false;
  for (;;) {
    try {
      const full = since === undefined;
      const seen = new Set<MirrorKey>();
      const feed = changeFeed(api, { ...options, since });
      for await (const change of feed) {
        const key = mirrorKey(change.type, change.id);
        touch(change.type, change.id, key);
        if (change.action === 'delete') mirror.delete(key);
        else {
          mirror.set(key, change.record);
          seen.add(key);
        }
      }
      if (full) {
        // The whole feed holds every record there is: what it did not name is gone.
        const types = options.types ?? DEFAULT_CHANGE_TYPES;
        for (const key of [...mirror.keys()]) {
          const [type, id] = key.split(':') as [ChangeType, string];
          if (!seen.has(key) && types.includes(type)) {
            touch(type, Number(id), key);
            mirror.delete(key);
          }
        }
      }
      return { ...netEffect(mirror, touched), cursor: feed.cursor!, resynced };
    } catch (error) {
      if (!(error instanceof CursorGoneError) || since === undefined) throw error;
      since = undefined;
      resynced = true;
    }
  }
}

function netEffect(
  mirror: Mirror,
  touched: Map<MirrorKey, Touched>,
): Pick<SyncResult, 'added' | 'changed' | 'removed'> {
  const added: SyncAdded[] = [];
  const changed: SyncChanged[] = [];
  const removed: SyncRemoved[] = [];
  for (const [key, { type, id, previous }] of touched) {
    const record = mirror.get(key);
    if (previous === undefined && record !== undefined) added.push({ type, id, record } as SyncAdded);
    else if (previous !== undefined && record === undefined) removed.push({ type, id, previous } as SyncRemoved);
    else if (previous !== undefined && JSON.stringify(previous) !== JSON.stringify(record)) {
      changed.push({ type, id, record, previous } as SyncChanged);
    }
  }
  return { added, changed, removed };
}

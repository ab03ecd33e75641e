// What this process wrote last, per project: a caller that sends no Storefront-Version still
// reads its own writes (CONTRACT 16), since the request is answered from a database that has
// reached the version this process last committed for the project. Kept per storage (tests run
// many apps in one process), keyed by its `db`; bounded, the oldest project forgotten first
// (a forgotten project only loses the guarantee for callers of this process that send nothing).

const MAX_PROJECTS = 10_000;

const written = new WeakMap<object, Map<string, number>>();
/** other handles of the same database in this process, by the serving storage's `db` they write for */
const aliases = new WeakMap<object, object>();

/**
 * Writes through `other` (the import jobs' long-running storage, db/long-writes.ts) count as
 * writes of `serving`: its requests must read what this process's jobs wrote.
 */
export function writesCountFor(other: object, serving: object): void {
  aliases.set(other, serving);
}

/** The write unit calls this after each commit (src/writes/write-project.ts). */
export function noteWrite(through: object, projectId: string, version: number): void {
  const db = aliases.get(through) ?? through;
  let versions = written.get(db);
  if (!versions) written.set(db, (versions = new Map<string, number>()));
  if (version <= (versions.get(projectId) ?? 0)) return;
  versions.delete(projectId); // to the end of the insertion order: the newest
  versions.set(projectId, version);
  if (versions.size > MAX_PROJECTS) versions.delete(versions.keys().next().value as string);
}

/** The highest version of the project this process committed through `db`; 0 when none. */
export function writtenVersion(db: object, projectId: string): number {
  return written.get(db)?.get(projectId) ?? 0;
}

/**
 * A deleted project's versions mean nothing to its successor, whose versions start again at 1
 * (src/writes/delete-project.ts): forgotten, so that its reads are not sent to the primary
 * until the new life passes the old one's count.
 */
export function forgetWrites(through: object, projectId: string): void {
  written.get(aliases.get(through) ?? through)?.delete(projectId);
}

import type { Selectable } from 'kysely';
import { Lru } from '../cache/lru.js';
import type { Reads } from '../db/reads.js';
import type { ProjectTable } from '../db/schema.js';
import { findKeyByHash, findKeyById, markUsed } from './repository.js';
import { type Scope, scopesOf } from './scopes.js';
import { hashKey, sameHash } from './token.js';

// The key check of every protected request, answered from memory (docs/PERFORMANCE.md,
// "The key check"). What a hash names is kept per process with the project's keys_version
// at the time it was read; every change to a project's keys bumps that version in its own
// transaction (repository.ts), and every request reads its project row afresh (the shared
// reader, src/resources/projects/reader.ts) before its key is checked. So an entry is used
// only while no key of the project has changed since it was read, and a revocation, a roll
// or a new key in any process is seen on the very next request. Expiry is judged against
// the clock on every request; last_used_at is written after the answer's path, at most
// once a minute per key.

/** A key that passed the check. */

/** What the check reads of the request's project row. */
type Project = Pick<Selectable<ProjectTable>, 'id' | 'keys_version' | 'incarnation'>;

export interface AcceptedKey {
  id: number;
  scopes: ReadonlySet<Scope>;
}

interface Entry {
  /** the project's keys_version when the row was read */
  version: number;
  /**
   * and its life (migration 019): keys_version restarts when a project is made again with the
   * same id, so the version alone could take a deleted project's key for its successor's
   */
  incarnation: string;
  /** undefined: no key has this hash */
  key?: AcceptedKey & { projectId: string; expiresAt: number | null; revoked: boolean };
}

/** Keys remembered per process; unknown hashes are remembered too, so they cost no query. */
const MAX_ENTRIES = 10_000;
/** How long ownerOf trusts what it read: a key revoked meanwhile is still refused, only worded so. */
const OWNER_SECONDS = 60;
/** last_used_at is as precise as this, in seconds: a busy key is not a write per request. */
export const LAST_USED_RESOLUTION = 60;

export class KeyChecker {
  private readonly entries = new Lru<Entry>(MAX_ENTRIES);
  /** whose live key a hash is, for the wording of a 401 (ownerOf) */
  private readonly owners = new Lru<{ owner?: string; at: number }>(MAX_ENTRIES);
  /** the last_used_at each key is known to have (written, or read), by key id */
  private readonly lastUsed = new Map<number, number>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    /** the key is read, and its last_used_at written, on the point connection */
    private readonly reads: Reads,
    /** the clock keys expire by, in unix seconds (the key routes read it too) */
    readonly now: () => number,
    private readonly onWriteError: (error: unknown) => void = () => {},
  ) {}

  /**
   * The key, when `key` (well-formed: token.ts) is a live key of this project now;
   * undefined otherwise. `project` is the row read for this request, after it arrived.
   */
  async check(project: Project, key: string): Promise<AcceptedKey | undefined> {
    const hash = hashKey(key);
    let entry = this.entries.get(hash);
    if (entry?.version !== project.keys_version || entry.incarnation !== project.incarnation) {
      const row = await findKeyByHash(this.reads.point, hash);
      entry = { version: project.keys_version, incarnation: project.incarnation };
      if (row && sameHash(row.hash, hash)) {
        entry.key = {
          id: row.id,
          projectId: row.project_id,
          scopes: new Set(scopesOf(row.scopes)),
          expiresAt: row.expires_at,
          revoked: row.revoked_at !== null,
        };
        // Another process may have written it since: never write more often than it says.
        this.lastUsed.set(row.id, Math.max(this.lastUsed.get(row.id) ?? 0, row.last_used_at ?? 0));
      }
      this.entries.set(hash, entry);
    }
    const found = entry.key;
    const now = this.now();
    if (!found || found.projectId !== project.id || found.revoked) return undefined;
    if (found.expiresAt !== null && now >= found.expiresAt) return undefined;
    this.noteUse(found.id, now);
    return { id: found.id, scopes: found.scopes };
  }

  /** A live key of this project, by id: the key a download link stands for (src/export/download-links.ts). */
  async checkId(project: Project, keyId: number): Promise<AcceptedKey | undefined> {
    const row = await findKeyById(this.reads.point, project.id, keyId);
    if (!row || row.revoked_at !== null) return undefined;
    if (row.expires_at !== null && this.now() >= row.expires_at) return undefined;
    return { id: row.id, scopes: new Set(scopesOf(row.scopes)) };
  }

  /**
   * The project of a live key, for the 401 of a key refused on another project's path. It
   * names nothing the holder of the key does not already know, so a mistyped project id is
   * told apart from a bad key without a stranger learning which projects exist. Remembered
   * for OWNER_SECONDS (it only words a refusal), so a flood of refused keys costs no query.
   */
  async ownerOf(key: string): Promise<string | undefined> {
    const hash = hashKey(key);
    const now = this.now();
    const known = this.owners.get(hash);
    if (known && now - known.at < OWNER_SECONDS) return known.owner;
    const row = await findKeyByHash(this.reads.point, hash);
    const live = row && sameHash(row.hash, hash) && row.revoked_at === null && (row.expires_at ?? Infinity) > now;
    const owner = live ? row.project_id : undefined;
    this.owners.set(hash, { owner, at: now });
    return owner;
  }

  /** Keys (and unknown hashes) remembered (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Resolves once every last_used_at write started so far has ended (tests, closing). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  private noteUse(id: number, now: number): void {
    if (now - (this.lastUsed.get(id) ?? 0) < LAST_USED_RESOLUTION) return;
    const before = this.lastUsed.get(id) ?? 0;
    this.lastUsed.set(id, now);
    // Not awaited: the answer does not wait for this write, nor fails with it. A write the
    // database was too busy for (SQLite, an import holding the lock) is tried on the next use.
    const write = markUsed(this.reads.point, id, now).then((done) => {
      if (!done && this.lastUsed.get(id) === now) this.lastUsed.set(id, before);
    }, this.onWriteError);
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { Lru } from './lru.js';

// Which products changed since a version, as this process learned it from the change log: what
// lets a cached product answer outlive a write of products it does not show (src/plugins/
// answer-cache.ts). A stock update sets `products_version`, so without it every single product
// and every page of the project was computed again after each one.
//
// The change log holds one row per record, its latest change (src/changes/record.ts), written in
// the write's own transaction, and the project row's data_version serialises a project's writes,
// so once a database shows a project at products_version V, the rows of `changes` with a seq
// above U are every product changed after U up to V (and perhaps some after V: more than needed,
// never less). Each project keeps, from the version it was first asked at (`base`), the latest
// change of each product seen (`latest`), read up to `upTo`; a version older than `base` cannot be
// judged and counts as changed. Bounded: past MAX_TRACKED products the journal starts again at the
// version asked; and the journals of all projects together hold at most MAX_TRACKED_ALL products
// (a shared LRU: a deployment of thousands of shops keeps the busy ones', CONTRACT 19). A journal
// forgotten is started again at the version next asked: answers stored before it are computed again.

/** Products remembered per project before the journal starts again (one Map entry each). */
const MAX_TRACKED = 20_000;
/** Products remembered over every project's journal (each journal also counts one). */
const MAX_TRACKED_ALL = 200_000;

/** What a journal needs of the project row as the request read it. */
export interface ProductVersionScope {
  readonly id: string;
  /** the project's life (migration 019): a project made again with the same id starts a new journal */
  readonly incarnation: string;
  readonly products_version: number;
}

interface Journal {
  /** versions before this cannot be judged */
  base: number;
  /** the change log has been read up to this products_version */
  upTo: number;
  /** each product changed after `base`: the seq of its latest change seen */
  latest: Map<number, number>;
  /** the read of the change log under way, shared by the requests that need it */
  reading: Promise<void> | null;
}

export class ProductChanges {
  private readonly journals = new Lru<Journal>(MAX_TRACKED_ALL, (j) => 1 + j.latest.size);

  constructor(
    /** FOR TESTS ONLY: every product counts as unchanged (CacheConfig.brokenAnswerReuse) */
    private readonly broken = false,
  ) {}

  /**
   * Whether none of `ids` changed after `since` up to the project's products_version, reading
   * the change log through `db` (a database that shows the project at that version) when this
   * process has not read it that far yet. False when it cannot tell.
   */
  async unchangedSince(
    db: Kysely<Database>,
    project: ProductVersionScope,
    since: number,
    ids: readonly number[],
  ): Promise<boolean> {
    if (this.broken) return true;
    const journal = this.journalOf(project);
    if (since < journal.base) return false;
    while (journal.upTo < project.products_version) {
      journal.reading ??= this.read(db, project, journal, project.products_version);
      await journal.reading;
      // A journal restarted meanwhile (too many products) no longer covers `since`.
      if (since < journal.base) return false;
    }
    for (const id of ids) if ((journal.latest.get(id) ?? 0) > since) return false;
    return true;
  }

  /**
   * Starts remembering the project's product changes from its version as read now, if this
   * process does not already: answers stored from then on can be judged.
   */
  watch(project: ProductVersionScope): void {
    this.journalOf(project);
  }

  private journalOf(project: ProductVersionScope): Journal {
    const key = `${project.id}\u0000${project.incarnation}`;
    let journal = this.journals.get(key);
    if (!journal) {
      const v = project.products_version;
      journal = { base: v, upTo: v, latest: new Map(), reading: null };
      this.journals.set(key, journal);
    }
    return journal;
  }

  private async read(
    db: Kysely<Database>,
    { id: projectId, incarnation }: ProductVersionScope,
    journal: Journal,
    upTo: number,
  ): Promise<void> {
    try {
      const rows = await db
        .selectFrom('changes')
        .select(['id', 'seq'])
        .where('project_id', '=', projectId)
        .where('type', '=', 'product')
        .where('seq', '>', journal.upTo)
        // A bulk write changes a million: never read more than the journal keeps.
        .limit(MAX_TRACKED + 1 - journal.latest.size)
        .execute();
      if (journal.latest.size + rows.length > MAX_TRACKED) {
        journal.latest.clear();
        journal.base = upTo;
      } else {
        // bigint: a string on PostgreSQL
        for (const r of rows) journal.latest.set(Number(r.id), Number(r.seq));
      }
      journal.upTo = Math.max(journal.upTo, upTo);
      // Weighed again as it grew (the LRU weighs an entry when it is set).
      this.journals.set(`${projectId}\u0000${incarnation}`, journal);
    } finally {
      journal.reading = null;
    }
  }
}

import type { Reads } from '../../db/reads.js';
import { PROJECT_ID } from '../../http/schemas.js';
import { type Project, findProjects } from './repository.js';

// Every request under /v2/projects/:project_id reads its project's row: the row carries the
// versions every cache is keyed by (per record type, src/cache/versioned-key.ts), and reading it is how a write of another process
// becomes visible on the very next request. On PostgreSQL that is a round trip per request,
// which bounded a busy server's throughput.
//
// So reads are shared, without giving up that guarantee. A read starts at the end of the
// event-loop turn in which its first request arrived (setImmediate: after the turn's I/O
// callbacks, where every request that came in over the network in that turn has asked) and
// fetches, in one query, every project those requests named. A request that arrives while a
// read is under way does not join it (it started before the request arrived, and may miss a
// write acknowledged in between); it waits for the next read, which starts when the current
// one ends. Each request is therefore answered from a read that began after it arrived, and
// sees every write committed before it arrived; a busy server makes one query per turn or
// round trip instead of one per request.
//
// With read replicas (src/db/reads.ts), a read runs on the first of `reads.choices()`; a request
// whose row there is older than the version it must see (the Storefront-Version it sent, or
// this process's own last write of the project), or missing (a project just made), waits for
// the same read on the next choice, and so on to the primary, whose answer stands. The request
// then makes all its reads on the database that answered (`Entered.reads`). A write's request
// reads its row on the primary alone (`atLeast` Infinity): every read of a write is the primary's.

/** The request's project row and the database its reads go to. */
export interface Entered {
  project: Project | undefined;
  reads: Reads;
}

interface Waiter {
  id: string;
  atLeast: number;
  resolve(entered: Entered): void;
  reject(error: unknown): void;
}

export class ProjectReader {
  private reading = false;
  /** the requests waiting for the next read, by project id */
  private waiting: Waiter[] = [];

  constructor(private readonly reads: Reads) {}

  /** The project's row, read after this call; undefined when there is no such project. */
  async read(id: string): Promise<Project | undefined> {
    return (await this.enter(id, 0)).project;
  }

  /**
   * The project's row, read after this call on a database that has reached version `atLeast`
   * (or the primary), with the handle of that database for the request's other reads.
   */
  enter(id: string, atLeast: number): Promise<Entered> {
    if (!PROJECT_ID.test(id)) return Promise.resolve({ project: undefined, reads: this.reads });
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, atLeast, resolve, reject });
      if (!this.reading) {
        this.reading = true;
        setImmediate(() => void this.readWaiting());
      }
    });
  }

  private async readWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      let batch = this.waiting;
      this.waiting = [];
      const choices = this.reads.choices();
      for (const [i, reads] of choices.entries()) {
        const last = i === choices.length - 1;
        const asking = last ? batch : batch.filter((w) => w.atLeast !== Infinity);
        if (asking.length === 0) continue;
        try {
          const rows = await findProjects(reads.point, [...new Set(asking.map((w) => w.id))]);
          const byId = new Map(rows.map((r) => [r.id, r]));
          const answered = new Set<Waiter>();
          for (const w of asking) {
            const project = byId.get(w.id);
            if (!last && (!project || Number(project.data_version) < w.atLeast)) continue;
            w.resolve({ project, reads });
            answered.add(w);
          }
          batch = batch.filter((w) => !answered.has(w));
        } catch (error) {
          // A replica that fails (its lost connections are already run again on the primary,
          // db/replica-pool.ts) passes its requests on to the next choice: only the primary's
          // failure is the request's.
          if (!last) continue;
          for (const w of asking) w.reject(error);
          batch = batch.filter((w) => !asking.includes(w));
        }
      }
    }
    this.reading = false;
  }
}

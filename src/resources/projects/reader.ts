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

interface Waiter {
  resolve(project: Project | undefined): void;
  reject(error: unknown): void;
}

export class ProjectReader {
  private reading = false;
  /** the requests waiting for the next read, by project id */
  private waiting = new Map<string, Waiter[]>();

  constructor(private readonly reads: Reads) {}

  /** The project's row, read after this call; undefined when there is no such project. */
  read(id: string): Promise<Project | undefined> {
    if (!PROJECT_ID.test(id)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
      if (!this.reading) {
        this.reading = true;
        setImmediate(() => void this.readWaiting());
      }
    });
  }

  private async readWaiting(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = this.waiting;
      this.waiting = new Map();
      try {
        const rows = await findProjects(this.reads.point, [...batch.keys()]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [id, list] of batch) for (const w of list) w.resolve(byId.get(id));
      } catch (error) {
        for (const list of batch.values()) for (const w of list) w.reject(error);
      }
    }
    this.reading = false;
  }
}

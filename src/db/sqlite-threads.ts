import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { Reply, Request, WorkerOptions } from './sqlite-worker.js';

// Worker threads that each hold one SQLite connection (sqlite-worker.ts), and pools of them
// that hand a thread to one user at a time: a statement, or a whole transaction.

export type Outcome = { rows: unknown[] } | { changes: number | bigint; lastInsertRowid: number | bigint };

interface Pending {
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

const WORKER_URL = new URL('./sqlite-worker.js', import.meta.url);

export class SqliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** why the thread cannot run statements any more; undefined while it can */
  private dead?: Error;

  constructor(options: WorkerOptions) {
    this.worker = new Worker(WORKER_URL, { workerData: options });
    this.worker.on('message', (reply: Reply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in reply) pending.reject(sqliteError(reply.error));
      else pending.resolve(reply);
    });
    // A worker that cannot open the file, or dies, fails what it was asked; the pool then
    // replaces it.
    this.worker.on('error', (error: unknown) => {
      // What the thread threw arrives cloned: a SqliteError as a plain { code } object.
      const e = (error ?? {}) as { message?: unknown; code?: unknown };
      this.fail(
        sqliteError({
          message:
            typeof e.message === 'string' && e.message
              ? e.message
              : `SQLite worker thread failed: ${String(e.code ?? error)}`,
          code: typeof e.code === 'string' ? e.code : undefined,
        }),
      );
    });
    this.worker.on('exit', (code) => this.fail(new Error(`SQLite worker thread exited (code ${code})`)));
    // An idle thread does not keep the process alive; one running a statement does (ref while
    // anything is pending). After the listeners: adding a 'message' listener refs the port again.
    this.worker.unref();
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  run(sql: string, params: readonly unknown[], arrays = false): Promise<Outcome> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<Outcome>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, sql, params, arrays } satisfies Request);
    });
  }

  /** Closes the connection and ends the thread. */
  async close(): Promise<void> {
    if (this.dead) return;
    this.dead = new Error('SQLite worker thread closed');
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.ref(); // the process waits for the connection to close
    this.worker.postMessage('close');
    await exited;
  }

  private fail(error: Error): void {
    this.dead ??= error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/**
 * The error better-sqlite3 would have thrown on the main thread: a SqliteError with the
 * same message and code, so that error mapping (SQLITE_BUSY -> 503) does not change.
 */
function sqliteError(error: { message: string; code?: string }): Error {
  return error.code ? new SQLite.SqliteError(error.message, error.code) : new Error(error.message);
}

/**
 * A write that waited `waitMs` for the one writer thread, held all that time by other writes (a
 * long import's transaction): SQLITE_BUSY as SQLite itself would say past busy_timeout, so
 * that it is answered 503 with Retry-After (src/http/error-mapping.ts), never left waiting
 * until the client gives up.
 */
export class WriterBusyError extends Error {
  readonly code = 'SQLITE_BUSY_WRITER';
  constructor(waitMs: number) {
    super(`the database's writer was busy for ${waitMs} ms (another write holds it)`);
  }
}

/** How long a thread beyond the pool's size may stay idle before it ends. */
const EXTRA_IDLE_MS = 10_000;

/**
 * Threads on one file, each lent to one user at a time; the first to ask gets the next free
 * one. `size` threads are kept; when all are busy (slow searches, say) the pool grows up to
 * `max`, so that a quick read starts at once on a thread of its own and the OS shares the
 * cores between them, instead of waiting for a slow one to end. The extra threads end after
 * EXTRA_IDLE_MS without work.
 */
export class ThreadPool {
  private readonly idle: SqliteThread[] = [];
  /** callers waiting for a thread, first come first served; failed when the pool closes */
  private readonly waiting: { give(thread: SqliteThread): void; fail(error: Error): void }[] = [];
  private readonly all = new Set<SqliteThread>();
  /** when each idle thread became idle */
  private readonly idleSince = new Map<SqliteThread, number>();
  private closed = false;

  constructor(
    private readonly options: WorkerOptions,
    private readonly size: number,
    private readonly max = size,
    private readonly extraIdleMs = EXTRA_IDLE_MS,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  /** threads running now (for tests and metrics) */
  get threads(): number {
    return this.all.size;
  }

  /**
   * The next free thread. With `waitMs`, a caller still waiting after that long gives up
   * with a WriterBusyError (answered 503 with Retry-After) and leaves the queue.
   */
  acquire(waitMs?: number): Promise<SqliteThread> {
    if (this.closed) return Promise.reject(new Error('the SQLite connection is closed'));
    const thread = this.idle.pop();
    if (thread) {
      this.idleSince.delete(thread);
      return Promise.resolve(thread.alive ? thread : this.replace(thread));
    }
    if (this.all.size < this.max) return Promise.resolve(this.spawn());
    if (waitMs === undefined) return new Promise((give, fail) => this.waiting.push({ give, fail }));
    return new Promise((resolve, reject) => {
      const waiter = {
        give(t: SqliteThread) {
          clearTimeout(timer);
          resolve(t);
        },
        fail(error: Error) {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(new WriterBusyError(waitMs));
      }, waitMs);
      this.waiting.push(waiter);
    });
  }

  release(thread: SqliteThread): void {
    const next = thread.alive || this.closed ? thread : this.replace(thread);
    const waiter = this.waiting.shift();
    if (waiter) return waiter.give(next);
    this.idle.push(next);
    this.idleSince.set(next, Date.now());
    if (this.all.size > this.size) this.retireLater(next, this.extraIdleMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A caller still waiting for a thread would otherwise wait for ever (and, with nothing
    // else pending, the process would end under it).
    for (const waiter of this.waiting.splice(0)) waiter.fail(new Error('the SQLite connection is closed'));
    await Promise.all([...this.all].map((t) => t.close()));
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(): SqliteThread {
    const thread = new SqliteThread(this.options);
    this.all.add(thread);
    return thread;
  }

  private replace(dead: SqliteThread): SqliteThread {
    this.all.delete(dead);
    void dead.close();
    return this.spawn();
  }

  /** threads with a retire timer set: one timer per thread, however often it is released */
  private readonly retiring = new Set<SqliteThread>();

  private retireLater(thread: SqliteThread, ms: number): void {
    if (this.retiring.has(thread)) return;
    this.retiring.add(thread);
    setTimeout(() => {
      this.retiring.delete(thread);
      this.retire(thread);
    }, ms).unref();
  }

  /** Ends a thread beyond the pool's size once it has been idle for extraIdleMs. */
  private retire(thread: SqliteThread): void {
    const since = this.idleSince.get(thread);
    if (this.closed || since === undefined || this.all.size <= this.size) return;
    const left = since + this.extraIdleMs - Date.now();
    if (left > 0) return this.retireLater(thread, left);
    this.idle.splice(this.idle.indexOf(thread), 1);
    this.idleSince.delete(thread);
    this.all.delete(thread);
    void thread.close();
  }
}

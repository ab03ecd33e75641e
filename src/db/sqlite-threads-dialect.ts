import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  IdentifierNode,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type TransactionSettings,
  createQueryId,
} from 'kysely';
import type { SqliteThread, ThreadPool } from './sqlite-threads.js';

// Kysely over SQLite connections in worker threads (docs/ARCHITECTURE.md, "SQLite in worker
// threads"). better-sqlite3 is synchronous: on the main thread, one slow count or search
// stopped every other request, and a write waiting for another process's lock (a CLI
// import) stopped the whole server for up to busy_timeout. Here the event loop only sends
// compiled SQL and receives rows:
// - a SELECT outside a transaction goes to the next free reader (read-only connections; WAL
//   lets them read beside the writer, each statement on the latest committed data);
// - every other statement, and every transaction, goes to the one writer thread, held for
//   the whole transaction (SQLite has one writer at a time anyway, and the writes of one
//   process then queue here instead of on the file lock);
// - a read-only transaction (`reads.snapshot`, reads.ts) holds one reader from BEGIN
//   to COMMIT: its statements see one snapshot.

/** The adapter of a threaded SQLite Kysely: what `reads.snapshot` recognises it by. */
export class ThreadedSqliteAdapter extends SqliteAdapter {}

export class ThreadedSqliteDialect extends SqliteDialect {
  /**
   * `writeWaitMs`: how long a write or transaction waits for the writer thread before it gives
   * up with a WriterBusyError (sqlite-threads.ts); undefined: as long as it takes.
   */
  constructor(
    private readonly readers: ThreadPool,
    private readonly writer: ThreadPool,
    private readonly writeWaitMs?: number,
  ) {
    // SqliteDialect's own driver is never made; the query compiler and introspector are its.
    super({ database: () => Promise.reject(new Error('unused')) });
  }

  override createDriver(): Driver {
    return new ThreadedSqliteDriver(this.readers, this.writer, this.writeWaitMs);
  }

  override createAdapter(): SqliteAdapter {
    return new ThreadedSqliteAdapter();
  }
}

export function isThreadedSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof ThreadedSqliteAdapter;
}

/** Compiled SELECTs whose rows the thread sends as arrays of values (array-rows.ts). */
const AS_ARRAYS = new WeakSet<CompiledQuery>();

/** Asks for this query's rows as arrays of values, in the order of its columns. */
export function readAsArrays(query: CompiledQuery): void {
  AS_ARRAYS.add(query);
}

class ThreadedSqliteDriver implements Driver {
  constructor(
    private readonly readers: ThreadPool,
    private readonly writer: ThreadPool,
    private readonly writeWaitMs?: number,
  ) {}

  async init(): Promise<void> {}

  // A connection is a handle that borrows a thread per statement, or for a transaction.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadedConnection(this.readers, this.writer, this.writeWaitMs);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (connection as ThreadedConnection).begin(settings.accessMode === 'read only');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadedConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadedConnection).end('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(savepointCommand('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(savepointCommand('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(savepointCommand('release', name), createQueryId()));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadedConnection).release();
  }

  async destroy(): Promise<void> {
    await Promise.all([this.readers.close(), this.writer.close()]);
  }
}

function savepointCommand(command: string, name: string) {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
}

class ThreadedConnection implements DatabaseConnection {
  /** the thread this connection's transaction runs on, from BEGIN to its end */
  private held?: { thread: SqliteThread; pool: ThreadPool };

  constructor(
    private readonly readers: ThreadPool,
    private readonly writer: ThreadPool,
    private readonly writeWaitMs?: number,
  ) {}

  async begin(readOnly: boolean): Promise<void> {
    const pool = readOnly ? this.readers : this.writer;
    const thread = await pool.acquire(readOnly ? undefined : this.writeWaitMs);
    this.held = { thread, pool };
    try {
      await thread.run('begin', []);
    } catch (e) {
      this.held = undefined;
      pool.release(thread);
      throw e;
    }
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    const held = this.held;
    // A rollback after a COMMIT whose thread died: SQLite undid the transaction already.
    if (!held) return;
    try {
      await held.thread.run(command, []);
    } catch (e) {
      // A COMMIT that failed (SQLITE_BUSY) leaves the transaction open: keep the thread,
      // Kysely rolls back next. A failed ROLLBACK has nothing left to undo.
      if (command === 'commit' && held.thread.alive) throw e;
      this.held = undefined;
      held.pool.release(held.thread);
      throw e;
    }
    this.held = undefined;
    held.pool.release(held.thread);
  }

  /** Kysely's end of the connection: a transaction still open here (never expected) is undone. */
  async release(): Promise<void> {
    if (this.held) await this.end('rollback').catch(() => {});
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const arrays = AS_ARRAYS.has(query);
    if (this.held) return result<R>(await this.held.thread.run(query.sql, query.parameters, arrays));
    const read = SelectQueryNode.is(query.query);
    const pool = read ? this.readers : this.writer;
    const thread = await pool.acquire(read ? undefined : this.writeWaitMs);
    try {
      return result<R>(await thread.run(query.sql, query.parameters, arrays));
    } finally {
      pool.release(thread);
    }
  }

  // Nothing in the service streams; the rows arrive whole from the thread anyway.
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (const row of rows) yield { rows: [row] };
  }
}

/** The result Kysely's own SqliteConnection gives for the same outcome. */
function result<R>(outcome: Awaited<ReturnType<SqliteThread['run']>>): QueryResult<R> {
  if ('rows' in outcome) return { rows: outcome.rows as R[] };
  return { numAffectedRows: BigInt(outcome.changes), insertId: BigInt(outcome.lastInsertRowid), rows: [] };
}

import { deserialize, serialize } from 'node:v8';
import SQLite from 'better-sqlite3';
import type { RecordRows, ResourceDescriptor } from '../resources/descriptor.js';
import type { Kind } from '../resources/registry.js';

// A staged import's own SQLite database (staged-run.ts), never the served one: the batches
// that change something, compared outside the writer, wait here for the merge, so that memory
// stays bounded by a batch whatever the file's size. It also holds the handles those batches
// claim, which the read snapshot cannot show: a later batch's handle check (batch-writer.ts)
// needs them as the database would hold them had the earlier batches been written.
// It is SQLite's anonymous temporary database of a connection of its own: its pages spill to
// a file in the temporary folder (SQLITE_TMPDIR, else TMPDIR, else /var/tmp or /tmp) that
// SQLite removes as it opens it, so nothing outlives the import, not even a crash, and no
// other connection ever waits for it.

export class StagedFile {
  private readonly sqlite: SQLite.Database;
  private count = 0;

  constructor() {
    this.sqlite = new SQLite('');
    // Scratch data of one import: nothing to recover after a crash.
    this.sqlite.pragma('journal_mode = OFF');
    this.sqlite.exec(`
      create table batches (seq integer primary key, kind text not null, rows blob not null);
      create table handles (kind text, handle text, id integer, primary key (kind, handle)) without rowid;
      create table holds (kind text, id integer, handle text, primary key (kind, id)) without rowid;`);
  }

  /** batches kept */
  get batches(): number {
    return this.count;
  }

  /** Keeps a batch: the records that change, `stored` those of them stored before the import. */
  put(resource: ResourceDescriptor, staged: RecordRows[], stored: number[]): void {
    const kind = resource.kind;
    this.sqlite
      .prepare('insert into batches (seq, kind, rows) values (?, ?, ?)')
      .run(++this.count, kind, serialize({ staged, stored }));
    if (!resource.handles) return;
    const claim = this.sqlite.prepare('insert or replace into handles (kind, handle, id) values (?, ?, ?)');
    const hold = this.sqlite.prepare('insert or replace into holds (kind, id, handle) values (?, ?, ?)');
    this.sqlite.transaction(() => {
      for (const { row } of staged) {
        claim.run(kind, row.handle, row.id);
        hold.run(kind, row.id, row.handle);
      }
    })();
  }

  /**
   * `holders` (handle -> id, as the snapshot holds them) as the database would hold them
   * after the earlier batches: a holder those batches gave another handle lets it go, and a
   * handle they claimed is held by its claimer.
   */
  heldByEarlierBatches(resource: ResourceDescriptor, handles: string[], holders: Map<string, number>): void {
    const kind = resource.kind;
    const holds = this.sqlite.prepare(
      'select id, handle from holds where kind = ? and id in (select value from json_each(?))',
    );
    for (const h of holds.all(kind, JSON.stringify([...holders.values()])) as { id: number; handle: string }[])
      for (const [handle, id] of holders) if (id === h.id && handle !== h.handle) holders.delete(handle);
    const claims = this.sqlite.prepare(
      'select handle, id from handles where kind = ? and handle in (select value from json_each(?))',
    );
    for (const c of claims.all(kind, JSON.stringify(handles)) as { handle: string; id: number }[])
      holders.set(c.handle, c.id);
  }

  /** The batch kept `seq`-th (from 1). */
  batch(seq: number): { kind: Kind; staged: RecordRows[]; stored: number[] } {
    const row = this.sqlite.prepare('select kind, rows from batches where seq = ?').get(seq) as {
      kind: Kind;
      rows: Buffer;
    };
    return { kind: row.kind, ...(deserialize(row.rows) as { staged: RecordRows[]; stored: number[] }) };
  }

  /** Closes the database, which SQLite then forgets. */
  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}

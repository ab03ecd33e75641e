import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Storage } from './connect.js';
import type { Database } from './schema.js';
import { unnestInsert } from './unnest-insert.js';

// Bulk inserts of plain rows. On SQLite prepared multi-row INSERTs, reused for every batch:
// parsing a thousand-row VALUES statement again for every batch cost more than the inserts
// themselves, and single-row statements are slow too, since FTS5 (search-index.ts) flushes
// its pending entries at the end of every statement. On PostgreSQL unnest-insert.ts.
// Either way the rows go through the caller's transaction: on SQLite the one connection
// Kysely holds is the same handle, inside the BEGIN the transaction issued. A storage whose
// queries run in worker threads (a server's, a test's) holds its transaction on the writer
// thread, not on that handle: there the same statements go through the transaction.

export type WriteRows = (table: keyof Database, rows: object[]) => Promise<void>;

export function bulkInserter(storage: Storage, trx: Kysely<Database>): WriteRows {
  if (storage.sqlite && !storage.sqliteReaders) return sqliteWriter(storage.sqlite);
  if (storage.sqlite) return sqliteWriter(trx);
  return postgresWriter(trx);
}

function postgresWriter(trx: Kysely<Database>): WriteRows {
  return (table, rows) => unnestInsert(trx, table, rows as Record<string, unknown>[]);
}

function sqliteWriter(target: SQLite.Database | Kysely<Database>): WriteRows {
  const statements = new Map<string, { run(values: unknown[]): unknown }>();
  const statement = (table: string, columns: string[], n: number) => {
    const key = `${table}(${columns.join(',')})x${n}`;
    let st = statements.get(key);
    if (!st) {
      const one = `(${columns.map(() => '?').join(', ')})`;
      const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(n).fill(one).join(', ')}`;
      st =
        'prepare' in target
          ? target.prepare(text)
          : { run: (values: unknown[]) => target.executeQuery(CompiledQuery.raw(text, values)) };
      statements.set(key, st);
    }
    return st;
  };
  return async (table, rows) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]);
    const per = Math.min(500, Math.floor(30_000 / columns.length));
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per) as Record<string, unknown>[];
      const values: unknown[] = [];
      for (const r of chunk) for (const c of columns) values.push(r[c]);
      await statement(table, columns, chunk.length).run(values);
    }
  };
}

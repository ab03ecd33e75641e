import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Storage } from '../db/connect.js';
import type { Database } from '../db/schema.js';

// Bulk inserts of plain rows. On SQLite prepared multi-row INSERTs, reused for every batch:
// parsing a thousand-row VALUES statement again for every batch cost more than the inserts
// themselves, and single-row statements are slow too, since FTS5 (search-index.ts) flushes
// its pending entries at the end of every statement. On PostgreSQL a multi-row INSERT per batch (one round trip).
// Either way the rows go through the caller's transaction: on SQLite the one connection
// Kysely holds is the same handle, inside the BEGIN the transaction issued.

export type WriteRows = (table: keyof Database, rows: object[]) => Promise<void>;

export function rowWriter(storage: Storage, trx: Kysely<Database>): WriteRows {
  if (storage.sqlite) return sqliteWriter(storage.sqlite);
  return postgresWriter(trx);
}

/**
 * INSERT … SELECT FROM unnest($1::type[], …): one array parameter per column, whatever the
 * number of rows. A multi-row VALUES list of 30,000 parameters took PostgreSQL longer to
 * parse and plan than to insert.
 */
function postgresWriter(trx: Kysely<Database>): WriteRows {
  const types = new Map<string, Map<string, string>>();
  return async (table, rows) => {
    if (rows.length === 0) return;
    let columnTypes = types.get(table);
    if (!columnTypes) {
      const { rows: cols } = await sql<{ column_name: string; udt_name: string }>`
        select column_name, udt_name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`.execute(trx);
      columnTypes = new Map(cols.map((c) => [c.column_name, c.udt_name]));
      types.set(table, columnTypes);
    }
    const columns = Object.keys(rows[0]);
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000) as Record<string, unknown>[];
      const arrays = columns.map((c) => sql`${chunk.map((r) => r[c])}::${sql.raw(columnTypes.get(c)!)}[]`);
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})`.execute(trx);
    }
  };
}

function sqliteWriter(sqlite: SQLite.Database): WriteRows {
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: string, columns: string[], n: number) => {
    const key = `${table}(${columns.join(',')})x${n}`;
    let st = statements.get(key);
    if (!st) {
      const one = `(${columns.map(() => '?').join(', ')})`;
      st = sqlite.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(n).fill(one).join(', ')}`);
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
      statement(table, columns, chunk.length).run(values);
    }
  };
}

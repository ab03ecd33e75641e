import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { Lru } from '../cache/lru.js';

/**
 * The better-sqlite3 handle as Kysely sees it, with prepared statements kept by SQL text.
 * Kysely prepares every query anew; parsing and planning the same few statements on every
 * request cost a third of the server's time in the benchmark. A statement is reusable once
 * its previous run has finished, which Kysely's one-connection mutex guarantees; SQLite
 * re-prepares a kept statement by itself after a schema change.
 */
export function withStatementCache(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const statements = new Lru<SQLite.Statement>(size);
  return {
    prepare(sql: string) {
      let st = statements.get(sql);
      if (!st) {
        st = sqlite.prepare(sql);
        statements.set(sql, st);
      }
      return st;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

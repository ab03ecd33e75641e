import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

// A bulk load's settings, for the length of its transaction. SQLite: the connection that
// writes gets a large page cache (ConnectOptions.sqliteCacheMiB): with the 2 MiB a server's
// writer thread keeps otherwise, every batch of a large import read the index pages of a
// million rows again. 64 MiB, half what `storefront import` opens alone: a server's import of
// 1M took as long with it as with 128, and the server stays smaller. The cache is given back
// after, so that a server does not keep the pages of its last import (docs/PERFORMANCE.md,
// "Bulk loads (issue 27)").
// PostgreSQL: nothing to set (its buffers are the server's).

/** MiB of page cache a bulk load writes with (SQLite). */
export const BULK_LOAD_CACHE_MIB = 64;

export async function withBulkLoadCache<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (isPostgres(trx)) return work();
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(trx);
  const before = Number(rows[0]?.cache_size ?? -2048);
  // Negative: KiB; positive: pages (of 4 KiB here). A connection opened larger keeps its own.
  const kib = before < 0 ? -before : before * 4;
  if (kib >= BULK_LOAD_CACHE_MIB * 1024) return work();
  await sql.raw(`pragma cache_size = -${BULK_LOAD_CACHE_MIB * 1024}`).execute(trx);
  try {
    return await work();
  } finally {
    await sql.raw(`pragma cache_size = ${before}`).execute(trx);
  }
}

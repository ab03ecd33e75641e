import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, type Storage, connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { PG_URL, adminStatement } from './storage.js';

/**
 * Two storages on one database, as two server processes would have: a SQLite file opened
 * twice, or one PostgreSQL schema reached by two pools. Nothing is shared in memory.
 */
export async function twoStorages(backend: Backend): Promise<{ a: Storage; b: Storage; close(): Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'two-storages-'));
    const url = `sqlite:${join(dir, 'shop.db')}`;
    const a = connect(url);
    await migrateToLatest(a.db);
    const b = connect(url);
    return {
      a,
      b,
      async close() {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminStatement(`create schema ${schema}`);
  const a = connect(PG_URL, { searchPath: schema, poolSize: 2 });
  await migrateToLatest(a.db);
  const b = connect(PG_URL, { searchPath: schema, poolSize: 2 });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await adminStatement(`drop schema if exists ${schema} cascade`);
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { freshDatabase } from '../support/pg-database.js';
import { shopDocument } from '../support/shop.js';

// Databases of their own for the backup tests (the CLI and `serve` take a URL, not a schema):
// a SQLite file in a fresh folder, or a fresh PostgreSQL database; both removed at the end.

export interface BackupPlace {
  /** a folder for backup files, removed at the end */
  dir: string;
  /** a fresh, empty database URL of the backend */
  database(name: string): Promise<string>;
}

export async function backupPlace(t: TestContext, backend: Backend): Promise<BackupPlace> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-backups-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    database: async (name) =>
      backend === 'sqlite' ? `sqlite:${join(dir, `${name}.db`)}` : (await freshDatabase(t, `bk_${name}`)).url,
  };
}

/** The fixture shop, a key of it and a webhook endpoint that never answers (deliveries stay pending). */
export async function seedShopWithHook(url: string): Promise<{ key: string }> {
  const storage = connect(url);
  try {
    await migrateToLatest(storage.db);
    await importDocument(storage.db, shopDocument());
    const { key } = await createKey(storage, 'shop');
    await createEndpoint(storage, 'shop', 'http://127.0.0.1:9/hook', undefined, Math.floor(Date.now() / 1000));
    return { key };
  } finally {
    await storage.close();
  }
}

import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { ImportError, importDocument } from '../../src/import/import.js';

/** The project the import tests fill. */
export const IMPORT_PROJECT = { id: 'imp', name: 'Import shop', currency: 'GBP' };

/** The ImportError an import that must fail throws (its problems, as the CLI lists them). */
export async function importFailure(work: Promise<unknown>): Promise<ImportError> {
  try {
    await work;
  } catch (e) {
    assert.ok(e instanceof ImportError, String(e));
    return e;
  }
  assert.fail('the import was expected to fail');
}

/** The problems a document of IMPORT_PROJECT and these sections is refused with (it must be). */
export async function refusedSections(db: Kysely<Database>, sections: Record<string, unknown[]>): Promise<string[]> {
  return (await importFailure(importDocument(db, { project: IMPORT_PROJECT, ...sections }))).problems;
}

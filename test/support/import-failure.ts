import assert from 'node:assert/strict';
import { ImportError } from '../../src/import/import.js';

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

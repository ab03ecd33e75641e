import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { PG_SKIP, PG_URL } from '../support/storage.js';

// A serving process limits every statement to 10 s (no request hangs on a slow database);
// CLI commands run without a limit (a large import's reference checks may take minutes).

describe('PostgreSQL session settings per use', { skip: PG_SKIP }, () => {
  test('server: 10 s statement timeout; CLI: none; both name themselves', async (t) => {
    const settings = async (longRunning: boolean) => {
      const storage = connect(PG_URL!, { longRunning, poolSize: 1 });
      t.after(() => storage.close());
      const { rows } = await sql<{
        timeout: string;
        name: string;
      }>`select current_setting('statement_timeout') as timeout, current_setting('application_name') as name`.execute(
        storage.db,
      );
      return rows[0];
    };
    assert.deepEqual(await settings(false), { timeout: '10s', name: 'storefront-api' });
    assert.deepEqual(await settings(true), { timeout: '0', name: 'storefront-api' });
  });
});

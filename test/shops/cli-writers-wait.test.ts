import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { runCli } from '../support/processes.js';

// Two writers of one SQLite file from the command line (an import while another command
// writes) wait their turn: the CLI waits for another process's write lock up to 30 minutes
// (src/db/connect.ts), where the server's 5 s would answer "database is locked".

const HOLD_MS = 10_000;

test(
  'SQLite: a CLI write waits for another process holding the write lock past 5 s',
  { timeout: 120_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-writers-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'shop.db')}`;
    assert.equal((await runCli(['migrate', '--database', url])).code, 0);
    const other = new SQLite(join(dir, 'shop.db'));
    other.exec('begin immediate');
    const started = Date.now();
    const cli = runCli(
      ['project', 'create', 'acme', '--name', 'Acme', '--currency', 'EUR', '--database', url],
      {},
      90_000,
    );
    await sleep(HOLD_MS);
    other.exec('commit');
    other.close();
    const result = await cli;
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
    assert.equal(result.stdout, 'created project acme\n');
    assert.ok(Date.now() - started >= HOLD_MS);
  },
);

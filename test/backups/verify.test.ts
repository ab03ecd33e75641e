import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { backupDatabase } from '../../src/db/backups.js';
import { eachBackend } from '../support/each-backend.js';
import { runCli } from '../support/processes.js';
import { backupPlace, seedShopWithHook } from './databases.js';

// `storefront verify-backup` reads a backup whole: a good one prints its counts, a truncated
// or damaged one fails with a line saying so, and restore refuses to load either.

eachBackend('verify-backup', (backend) => {
  test('passes a good copy; fails a truncated and a corrupted one, which restore refuses', async (t) => {
    const place = await backupPlace(t, backend);
    const source = await place.database('source');
    await seedShopWithHook(source);
    const good = join(place.dir, 'good.backup');
    await backupDatabase(source, good);
    const ok = await runCli(['verify-backup', good]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /complete and intact/);
    assert.match(ok.stdout, /^projects\t1$/m);
    assert.match(ok.stdout, /^api_keys\t1$/m);
    assert.match(ok.stdout, /^webhook_endpoints\t1$/m);

    const size = statSync(good).size;
    const truncated = join(place.dir, 'truncated.backup');
    copyFileSync(good, truncated);
    truncateSync(truncated, Math.floor(size * 0.6));
    const corrupted = join(place.dir, 'corrupted.backup');
    copyFileSync(good, corrupted);
    // Inside a stored row where the text is plain (SQLite): no b-tree check sees a changed byte
    // there, the backup's checksum does. Elsewhere (pg_dump compresses), bytes mid-file.
    const at = readFileSync(good).indexOf('A removed scarf');
    const fd = openSync(corrupted, 'r+');
    if (at >= 0) writeSync(fd, 'A removed scarF', at);
    else writeSync(fd, randomBytes(2048), 0, 2048, Math.floor(size * 0.5));
    closeSync(fd);
    for (const [file, why] of [
      [truncated, /truncated|damaged/],
      [corrupted, /corrupted|damaged/],
    ] as const) {
      const bad = await runCli(['verify-backup', file]);
      assert.equal(bad.code, 1, `${file}: ${bad.stdout}`);
      assert.match(bad.stderr, why);
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
      const restore = await runCli(['restore', file, '--database', await place.database('never')]);
      assert.equal(restore.code, 1);
    }
    const notOne = await runCli(['verify-backup', join(place.dir, 'missing.backup')]);
    assert.match(notOne.stderr, /no such file/);
  });
});

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eachBackend } from '../support/each-backend.js';
import { runCli, startServe } from '../support/processes.js';
import { until } from '../support/pg-standby.js';
import { backupPlace, seedShopWithHook } from './databases.js';

// `serve` with BACKUP_DIR backs itself up every BACKUP_EVERY and keeps BACKUP_KEEP; /readyz and
// /metrics report the last one. A server killed with SIGKILL while a backup is being written
// leaves only a temporary file, which verify-backup refuses, and the next start removes.

const FINISHED = /^storefront-\d{8}T\d{6}Z\.(db|pgdump)$/;

eachBackend('scheduled backups', (backend) => {
  test(
    'every BACKUP_EVERY, BACKUP_KEEP kept, reported; SIGKILL mid-backup leaves no backup',
    { timeout: 120_000 },
    async (t) => {
      const place = await backupPlace(t, backend);
      const url = await place.database('served');
      await seedShopWithHook(url);
      const dir = join(place.dir, 'backups');
      const env = { DATABASE_URL: url, BACKUP_DIR: dir, BACKUP_EVERY: '1s', BACKUP_KEEP: '2' };
      const server = await startServe(t, env);
      const seen = new Set<string>();
      await until(
        'three scheduled backups',
        () => {
          for (const name of readdirSync(dir)) if (FINISHED.test(name)) seen.add(name);
          return seen.size >= 3;
        },
        60_000,
      );
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as Record<string, any>;
      assert.ok(ready.backup.last_bytes > 0, JSON.stringify(ready));
      assert.equal(ready.warnings, undefined, JSON.stringify(ready));
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(metrics, /^storefront_backup_last_success_timestamp_seconds \d+$/m);
      assert.match(metrics, /^storefront_backup_last_size_bytes [1-9]\d*$/m);
      assert.match(metrics, /^storefront_backup_last_failed 0$/m);

      // Kill the process the moment a backup is being written.
      let partial: string | undefined;
      await until(
        'a backup being written',
        () => {
          partial = readdirSync(dir).find((n) => n.includes('.partial-'));
          return partial !== undefined;
        },
        30_000,
      );
      server.child.kill('SIGKILL');
      await server.exited;
      const names = readdirSync(dir);
      assert.ok(names.filter((n) => FINISHED.test(n)).length <= 2, `BACKUP_KEEP=2: ${names.join(', ')}`);
      for (const name of names) {
        const verified = await runCli(['verify-backup', join(dir, name)]);
        if (FINISHED.test(name)) assert.equal(verified.code, 0, `${name}: ${verified.stderr}`);
        else assert.equal(verified.code, 1, `${name} (left by the kill) must not pass: ${verified.stdout}`);
      }
      const again = await startServe(t, { ...env, BACKUP_EVERY: '1h' }); // the newest is recent: none is due
      assert.deepEqual(
        readdirSync(dir).filter((n) => !FINISHED.test(n)),
        [],
        'the next start removes what the killed one left',
      );
      again.child.kill('SIGTERM');
      await again.exited;
    },
  );
});

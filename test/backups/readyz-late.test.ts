import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackupState } from '../../src/backups/schedule.js';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';

// CONTRACT 20: /readyz warns when the last backup is older than twice BACKUP_EVERY, or failed,
// and stays ready (200): the API still serves. The schedule's state is the app's own object;
// the test dates its last backup in the past instead of waiting (BACKUP_EVERY = 60 s here).

const state: BackupState = { everySeconds: 60 };

eachBackend('/readyz and a late backup', (backend) => {
  const shared = suiteApp(backend, undefined, { backups: state });
  const ready = async () => {
    const answer = await call(shared.app, 'GET', '/readyz');
    assert.equal(answer.status, 200, 'a late or failed backup keeps the process ready');
    return answer.body as { backup: { last_at: number | null; failure?: string }; warnings?: string[] };
  };
  const secondsAgo = (s: number) => Math.floor(Date.now() / 1000) - s;

  test('none yet: a warning', async () => {
    Object.assign(state, { lastAt: undefined, lastBytes: undefined, failure: undefined });
    const body = await ready();
    assert.equal(body.backup.last_at, null);
    assert.deepEqual(body.warnings, ['no backup in the last 120 s (twice BACKUP_EVERY)']);
  });

  test('younger than twice BACKUP_EVERY: no warning, even past BACKUP_EVERY', async () => {
    Object.assign(state, { lastAt: secondsAgo(100), lastBytes: 4096, failure: undefined });
    const body = await ready();
    assert.equal(body.backup.last_at, state.lastAt);
    assert.equal(body.warnings, undefined);
  });

  test('older than twice BACKUP_EVERY: late', async () => {
    Object.assign(state, { lastAt: secondsAgo(125), lastBytes: 4096, failure: undefined });
    assert.deepEqual((await ready()).warnings, ['no backup in the last 120 s (twice BACKUP_EVERY)']);
  });

  test('the last attempt failed: that is the warning, however recent the last success', async () => {
    Object.assign(state, { lastAt: secondsAgo(5), lastBytes: 4096, failure: 'disk full' });
    const body = await ready();
    assert.equal(body.backup.failure, 'disk full');
    assert.deepEqual(body.warnings, ['the last backup failed: disk full']);
  });
});

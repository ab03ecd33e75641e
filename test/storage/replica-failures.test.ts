import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isReplicaFailure } from '../../src/db/replica-pool.js';

// What a replica's read may fail with and still be answered by the primary (CONTRACT 16):
// lost connections, a standby starting or stopping, and reads a standby cancels because they
// conflict with the WAL it replays (40001, and 40P01 for a buffer-pin deadlock with replay).
// Anything else is the statement's own error and is not run again.

test('recovery conflicts and lost connections are replica failures; errors of the statement are not', () => {
  for (const code of ['40001', '40P01', '57P01', '08006', 'ECONNRESET'])
    assert.equal(isReplicaFailure({ code, message: '' }), true, code);
  assert.equal(isReplicaFailure({ message: 'Connection terminated unexpectedly' }), true);
  for (const code of ['23505', '42P01', '57014', '22P02'])
    assert.equal(isReplicaFailure({ code, message: 'x' }), false, code);
});

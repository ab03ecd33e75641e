import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { snapshotStream } from '../../src/export/snapshot-stream.js';
import { eachBackend } from '../support/each-backend.js';
import { openStorage } from '../support/storage.js';
import { until } from '../support/pg-standby.js';

// EXPORT_MAX_SECONDS: a reader that stops reading holds the export's snapshot only until the
// limit; then the answer is cut off (an error on the stream: the client sees an incomplete
// transfer, never a complete-looking one), the reason is told once, and the read inside the
// snapshot ends at its next page.

eachBackend('export maximum duration', (backend) => {
  test('a reader that stops reading is cut off at the limit and the snapshot released', async (t) => {
    const storage = await openStorage(backend);
    t.after(() => storage.close());
    let pages = 0;
    let released = false;
    const told: number[] = [];
    const out = snapshotStream(
      storage.reads,
      async (db, emit) => {
        try {
          for (;;) {
            await sql`select 1`.execute(db);
            pages++;
            await emit('x'.repeat(64 * 1024));
          }
        } finally {
          released = true;
        }
      },
      { maxMs: 300, onLimit: (ms) => told.push(ms) },
    );
    let error: Error | undefined;
    out.on('error', (e) => (error = e));
    // Never read: after a page or two the producer waits for room that never comes.
    await until('the limit ending the answer', () => error !== undefined, 10_000);
    assert.match(error!.message, /longer than 300 ms \(EXPORT_MAX_SECONDS\)/);
    assert.deepEqual(told, [300]);
    await until('the snapshot released', () => released, 10_000);
    assert.ok(pages <= 3, `the producer stopped after ${pages} pages`);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadGate } from '../../src/resources/products/search/read-gate.js';

// The match index's gate between search threads and catch-ups (read-gate.ts): a change never
// runs while a read is out, and reads that come while it waits go after it.

test('a change waits for the reads out, and reads arriving meanwhile wait for the change', async () => {
  const gate = new ReadGate();
  const log: string[] = [];
  let endFirst!: () => void;
  const first = gate.read(async () => {
    log.push('read 1 begins');
    await new Promise<void>((resolve) => (endFirst = resolve));
    log.push('read 1 ends');
  });
  const change = gate.change(() => log.push('change'));
  const second = gate.read(async () => log.push('read 2'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ['read 1 begins'], 'neither the change nor the later read ran while read 1 is out');
  endFirst();
  await Promise.all([first, change, second]);
  assert.deepEqual(log, ['read 1 begins', 'read 1 ends', 'change', 'read 2']);
});

test('a failed read still lets the change through, and a change with no reader runs at once', async () => {
  const gate = new ReadGate();
  await assert.rejects(
    gate.read(() => Promise.reject(new Error('thread died'))),
    /thread died/,
  );
  let ran = false;
  await gate.change(() => (ran = true));
  assert.ok(ran);
  assert.equal(await gate.read(async () => 7), 7);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ticker } from '../../src/import/run.js';

// A server's import lets the event loop turn after `sliceMs` of reading without one
// (ImportOptions.sliceMs), so that requests beside it are answered between slices; the CLI's
// import (no sliceMs) never waits for a turn.

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

test('with sliceMs, a tick past the slice without a turn of the event loop waits for one; without, none does', async () => {
  const tick = ticker({ sliceMs: 5 }, () => 0);
  let turns = 0;
  let records = 0;
  const turn = () => {
    turns++;
    if (records < 4000) setImmediate(turn);
  };
  setImmediate(turn);
  let waits = 0;
  const started = performance.now();
  for (; records < 4000; records++) {
    busy(0.01); // a record's work: 4000 of them, 40 ms or more, never waiting
    const wait = tick(records + 1);
    if (wait) {
      const before = turns;
      await wait;
      waits++;
      assert.ok(turns > before, 'the event loop turned while the import waited');
    }
  }
  const elapsed = performance.now() - started;
  assert.ok(waits >= 1, 'the import let the event loop turn');
  // A slice is at least 5 ms (plus the 16 records before the clock is read again).
  assert.ok(waits <= elapsed / 5 + 1, `${waits} waits in ${elapsed} ms`);

  const cli = ticker({}, () => 0);
  for (let n = 1; n <= 4000; n++) {
    busy(0.01);
    assert.equal(cli(n), undefined);
  }
});

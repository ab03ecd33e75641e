import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type KeysetWalk, walkPages } from '../../src/db/keyset.js';

// walkPages (src/db/keyset.ts) over a read of an array: every row once, in pages; the next
// page asked for before the caller has the page before; a walk left early waits for it.

function walkOver(values: number[], pageSize: number, log: string[]): KeysetWalk<number, number[]> {
  return {
    keys: [{ column: 'v', dir: 'asc' }],
    pageSize,
    read: async (after, limit) => {
      // keysetAfter's last parameter is the last key's value.
      const from = after ? lastOf(after) : -1;
      log.push(`read after ${from}`);
      await new Promise((r) => setTimeout(r, 1));
      const rows = values.filter((v) => v > from).slice(0, limit);
      log.push(`read ${rows.length}`);
      return rows;
    },
    keyOf: (row) => [row],
    complete: async (rows) => rows,
  };
}

function lastOf(after: Parameters<KeysetWalk<number, number[]>['read']>[0]): number {
  const parameters = JSON.stringify(after!.toOperationNode()).match(/"value":(\d+)/g)!;
  return Number(parameters[parameters.length - 1].slice('"value":'.length));
}

test('walkPages gives every row once, reads ahead one page, and waits for it when left early', async () => {
  const values = Array.from({ length: 10 }, (_, i) => i * 10);
  for (const size of [1, 3, 5, 10, 20]) {
    const seen: number[] = [];
    for await (const page of walkPages(walkOver(values, size, []))) seen.push(...page);
    assert.deepEqual(seen, values, `pages of ${size}`);
  }
  const log: string[] = [];
  for await (const page of walkPages(walkOver(values, 3, log))) {
    log.push(`page ${page.join(',')}`);
    break;
  }
  // The second page was asked for before the first was used, and had arrived when the walk ended.
  assert.deepEqual(log, ['read after -1', 'read 3', 'read after 20', 'page 0,10,20', 'read 3']);
});

// FOR TESTS ONLY: STOREFRONT_BROKEN_CHANGE_ORDER=1 breaks the ordering of the change log on
// purpose, the way an id taken before commit does (a PostgreSQL sequence, a clock): each
// write transaction takes its seq from the clock *before* it locks the project row, then
// waits a little, and the feed's `next` becomes the last seq it returned. A writer that took
// an earlier seq can then commit after a reader moved past it. test/changes/convergence
// runs with it to prove that the convergence test detects the skipped change; nothing else
// sets it, and src/changes/record.ts explains the ordering that is kept otherwise. It is read
// once per process (src/config.ts).

import { brokenChangeOrder } from '../config.js';

const tickets = new WeakMap<object, number>();
let counter = 0;

export function brokenOrdering(): boolean {
  return brokenChangeOrder();
}

/** Called by every write transaction before its first write (the lock); a no-op normally. */
export async function beforeProjectLock(trx: object): Promise<void> {
  if (!brokenOrdering()) return;
  tickets.set(trx, Date.now() * 1000 + (counter++ % 1000));
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
}

/** The broken seq of this transaction, when ordering is broken on purpose. */
export function brokenSeq(trx: object): number | undefined {
  return brokenOrdering() ? (tickets.get(trx) ?? Date.now() * 1000) : undefined;
}

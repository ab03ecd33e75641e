// The short writes (writeProject's updates) open in this process. A write transaction runs
// its statements one event-loop turn after another; a turn that waits behind another
// request's long computation (shopper search's answer from memory, milliseconds each at a
// million products) keeps the transaction open the longer, and with it SQLite's one writer,
// or PostgreSQL's project row: the writes queued behind it then time out (503). So such
// computation first lets the open writes end, waiting at most a bound (an import's long
// write is not counted: it is a batch).

let open = 0;
let waiters: (() => void)[] = [];

export function writeBegan(): void {
  open++;
}

export function writeEnded(): void {
  open--;
  if (open > 0) return;
  const woken = waiters;
  waiters = [];
  for (const wake of woken) wake();
}

/** Resolves when no short write is open (checked again after each wake-up), or after `maxMs`. */
export async function afterOpenWrites(maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while (open > 0) {
    const left = until - Date.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Reads } from '../db/reads.js';
import type { Database } from '../db/schema.js';

// An export's answer: text produced page by page inside one snapshot (Reads.longSnapshot),
// pushed into a stream only as fast as the client reads it. `emit` waits while the stream's
// buffer is full, so memory holds a page or two whatever the export's size; a client that
// goes away ends the read (and its transaction) at the next page, and so does one still reading
// at the export's maximum duration.
//
// On a read replica, the standby may cancel the snapshot (a recovery conflict: the primary
// vacuumed rows it still shows) or be lost. The read then restarts whole on the primary
// (Reads.longSnapshot) while nothing has been sent; once some of the answer is out, another
// database's state cannot continue it (its records would not agree with those sent), so the
// answer is cut off as at the maximum duration: an incomplete transfer, never a complete-looking
// one, told once (`onLost`). The replica is left out until its next good probe, so the client's
// retry is answered by the primary or a replica that is well.

/** What an export writes its text through; resolves once there is room for more. */
export type Emit = (text: string) => Promise<void>;

class Closed extends Error {}

export interface StreamLimit {
  /** past this many milliseconds the answer is cut off and the snapshot released (EXPORT_MAX_SECONDS) */
  maxMs: number;
  /** told once when the limit ended the answer (a log line saying why) */
  onLimit(ms: number): void;
  /** told once when a replica lost the snapshot after part of the answer was sent (it is cut off) */
  onLost?(error: Error): void;
}

class LostMidway extends Error {}

export function snapshotStream(
  reads: Reads,
  produce: (db: Kysely<Database>, emit: Emit) => Promise<void>,
  limit?: StreamLimit,
): Readable {
  let resume: (() => void) | undefined;
  let closed = false;
  let sent = false;
  let runs = 0;
  const wake = () => {
    const r = resume;
    resume = undefined;
    r?.();
  };
  const out = new Readable({
    read: wake,
    destroy(error, callback) {
      closed = true;
      wake();
      callback(error);
    },
  });
  const emit: Emit = async (text) => {
    if (closed) throw new Closed();
    if (text !== '') sent = true;
    if (text !== '' && !out.push(text)) await new Promise<void>((r) => (resume = r));
    if (closed) throw new Closed();
  };
  // A reader still reading at the limit gets an incomplete transfer (the connection is closed
  // before the answer's end), never a complete-looking one; the snapshot ends at the next page.
  const timer =
    limit &&
    setTimeout(() => {
      if (closed) return;
      limit.onLimit(limit.maxMs);
      out.destroy(new Error(`the export ran longer than ${limit.maxMs} ms (EXPORT_MAX_SECONDS)`));
    }, limit.maxMs).unref();
  reads
    .longSnapshot((db) => {
      // A second run is the restart on the primary after a replica lost the snapshot.
      if (runs++ > 0 && sent) throw new LostMidway("the replica lost the export's snapshot after part of it was sent");
      return produce(db, emit);
    })
    .finally(() => clearTimeout(timer))
    .then(
      () => {
        if (!closed) out.push(null);
      },
      (error: unknown) => {
        if (error instanceof Closed) return;
        if (error instanceof LostMidway) limit?.onLost?.(error);
        out.destroy(error as Error);
      },
    );
  return out;
}

/** An Emit over a Node stream (the CLI's stdout): waits for 'drain' when its buffer is full. */
export function emitTo(out: NodeJS.WritableStream): Emit {
  return async (text) => {
    if (out.write(text)) return;
    await new Promise<void>((resolve) => out.once('drain', resolve));
  };
}

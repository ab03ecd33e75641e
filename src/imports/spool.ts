import { createHash, randomUUID } from 'node:crypto';
import { type WriteStream, createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';

// An upload goes to a spool file as it arrives, never into memory: the import reads it from
// there once the whole body is in, so that a slow client never holds a write lock. The
// limit is checked twice: a Content-Length over it is refused before a byte is read, and the
// bytes of a chunked body are counted as they come. The bytes must be UTF-8 (checked on the
// way, as for every body of the API: never stored altered). A large file takes minutes on an
// ordinary link, so the upload is bounded by its progress, not by its length: it fails when
// the client sends nothing for `idleMs` (the route lifts REQUEST_TIMEOUT_MS meanwhile), or
// sends slower than `minBytesPerSecond` over a window (a trickle would hold its import slot
// for ever: Apache's mod_reqtimeout `minrate` does the same).

export type ImportFormat = 'json' | 'ndjson' | 'csv';

export interface Spooled {
  path: string;
  bytes: number;
  /** SHA-256 of the bytes: a retried upload is the same request (Idempotency-Key) */
  sha256: string;
}

export interface SpoolLimits {
  dir: string;
  maxBytes: number;
  /** the upload fails (408) when no byte of it arrives for this many milliseconds (UPLOAD_IDLE_TIMEOUT_MS) */
  idleMs: number;
  /** the upload fails (408) when fewer bytes than this a second arrive over a window (UPLOAD_MIN_BYTES_PER_SECOND; 0: no minimum) */
  minBytesPerSecond?: number;
  /** the window of that rate (tests shorten it) */
  rateWindowMs?: number;
}

/** The window over which an upload's rate is judged. */
export const RATE_WINDOW_MS = 10_000;

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `an import body may hold at most ${maxBytes} bytes (IMPORT_MAX_BYTES)`, [
    { field: 'body', message: `is larger than ${maxBytes} bytes` },
  ]);
}

export function stalled(idleMs: number): ApiError {
  return new ApiError(
    408,
    `the upload stalled: no byte of it arrived for ${idleMs} ms (UPLOAD_IDLE_TIMEOUT_MS); nothing was imported`,
    [{ field: 'body', message: `sent nothing for ${idleMs} ms` }],
  );
}

export function tooSlow(minBytesPerSecond: number, bytes: number, windowMs: number): ApiError {
  return new ApiError(
    408,
    `the upload was too slow: ${bytes} bytes arrived in ${windowMs} ms, under ${minBytesPerSecond} bytes a second (UPLOAD_MIN_BYTES_PER_SECOND); nothing was imported`,
    [{ field: 'body', message: `arrived slower than ${minBytesPerSecond} bytes a second` }],
  );
}

function bodyProblem(message: string): ApiError {
  return new ApiError(400, `request body ${message}`, [{ field: 'body', message }]);
}

/** Refuses at once a body that says it is too large. */
export function checkDeclaredLength(header: string | undefined, maxBytes: number): void {
  if (header !== undefined && /^\d+$/.test(header) && Number(header) > maxBytes) throw tooLarge(maxBytes);
}

/** Streams `body` into a new file of `dir`; the file is removed again when anything fails. */
export async function spool(body: Readable, format: ImportFormat, limits: SpoolLimits): Promise<Spooled> {
  await mkdir(limits.dir, { recursive: true, mode: 0o700 });
  const path = join(limits.dir, `${randomUUID()}.${format}`);
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  const utf8 = utf8Checker();
  let bytes = 0;
  return new Promise<Spooled>((resolve, reject) => {
    /** the promise is settled: nothing more to do */
    let settled = false;
    // Runs while the server waits for the client, not while the body is paused for the disk.
    const waitForClient = () => setTimeout(() => fail(stalled(limits.idleMs)), limits.idleMs);
    let idle = waitForClient();
    const rate = watchRate(body, limits, (error) => fail(error));
    const detach = () => {
      clearTimeout(idle);
      rate.stop();
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', fail);
      body.off('aborted', onAborted);
    };
    function fail(error: Error) {
      if (settled) return;
      settled = true;
      detach();
      // The rest of the body is not read: the answer goes out and the connection is closed
      // (Fastify does so after a body parser's error).
      body.pause();
      void discard(out, path).then(() => reject(error));
    }
    function onAborted() {
      fail(new Error('the client went away during the upload'));
    }
    function onData(chunk: Buffer) {
      idle.refresh();
      bytes += chunk.length;
      rate.arrived(chunk.length);
      if (bytes > limits.maxBytes) return fail(tooLarge(limits.maxBytes));
      if (!utf8(chunk)) return fail(bodyProblem('is not valid UTF-8 text'));
      hash.update(chunk);
      if (!out.write(chunk)) {
        body.pause();
        rate.paused();
        clearTimeout(idle);
        out.once('drain', () => {
          if (settled) return;
          idle = waitForClient();
          body.resume();
        });
      }
    }
    function onEnd() {
      if (!utf8()) return fail(bodyProblem('is not valid UTF-8 text'));
      if (bytes === 0) return fail(bodyProblem('is empty; send the import file'));
      detach();
      out.end(() => {
        if (settled) return;
        settled = true;
        resolve({ path, bytes, sha256: hash.digest('hex') });
      });
    }
    out.on('error', (e) => {
      fail(new ApiError(503, 'the upload could not be stored on the server; try again later', undefined, { cause: e }));
    });
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', fail);
    body.on('aborted', onAborted);
  });
}

/**
 * Destroys `out` and removes its file once closed: a stream destroyed while its file is still
 * being opened creates the file afterwards (an empty body fails that soon).
 */
function discard(out: WriteStream, path: string): Promise<void> {
  const closed = out.closed ? Promise.resolve() : new Promise<void>((r) => out.once('close', () => r()));
  out.destroy();
  return closed.then(
    () => unlink(path).catch(() => {}),
    () => {},
  );
}

/** A streaming UTF-8 check: false once the chunks so far (without one: and their end) are not UTF-8. */
function utf8Checker(): (chunk?: Buffer) => boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return (chunk) => {
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * Judges an upload's rate: each window must bring its share of bytes, unless the body was
 * paused for the disk in it. `fail` is called once a window falls short.
 */
function watchRate(
  body: Readable,
  limits: SpoolLimits,
  fail: (error: ApiError) => void,
): { arrived(bytes: number): void; paused(): void; stop(): void } {
  const windowMs = limits.rateWindowMs ?? RATE_WINDOW_MS;
  const min = limits.minBytesPerSecond ?? 0;
  let bytes = 0;
  let pausedInWindow = false;
  const timer =
    min > 0
      ? setInterval(() => {
          if (!pausedInWindow && bytes < (min * windowMs) / 1000) fail(tooSlow(min, bytes, windowMs));
          bytes = 0;
          pausedInWindow = body.isPaused();
        }, windowMs)
      : undefined;
  return {
    arrived: (n) => (bytes += n),
    paused: () => (pausedInWindow = true),
    stop: () => clearInterval(timer),
  };
}

/** Removes a spool file; one already gone is fine. */
export async function removeSpool(path: string | null | undefined): Promise<void> {
  if (!path) return;
  await unlink(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

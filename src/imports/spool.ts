import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
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
// the client sends nothing for `idleMs` (the route lifts REQUEST_TIMEOUT_MS meanwhile).

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
}

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
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  return new Promise<Spooled>((resolve, reject) => {
    /** the promise is settled: nothing more to do */
    let settled = false;
    // Runs while the server waits for the client, not while the body is paused for the disk.
    const waitForClient = () => setTimeout(() => fail(stalled(limits.idleMs)), limits.idleMs);
    let idle = waitForClient();
    const detach = () => {
      clearTimeout(idle);
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
      out.destroy();
      unlink(path).then(
        () => reject(error),
        () => reject(error),
      );
    }
    function onAborted() {
      fail(new Error('the client went away during the upload'));
    }
    function onData(chunk: Buffer) {
      idle.refresh();
      bytes += chunk.length;
      if (bytes > limits.maxBytes) return fail(tooLarge(limits.maxBytes));
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        return fail(bodyProblem('is not valid UTF-8 text'));
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        body.pause();
        clearTimeout(idle);
        out.once('drain', () => {
          if (settled) return;
          idle = waitForClient();
          body.resume();
        });
      }
    }
    function onEnd() {
      try {
        utf8.decode();
      } catch {
        return fail(bodyProblem('is not valid UTF-8 text'));
      }
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

/** Removes a spool file; one already gone is fine. */
export async function removeSpool(path: string | null | undefined): Promise<void> {
  if (!path) return;
  await unlink(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

import type { Api } from './api.js';
import { queryString, segment } from './query.js';
import type { Import, ImportFormat } from './records.js';
import { sleep } from './retry.js';
import { type UploadProgress, countingBody, progressFetch } from './upload-progress.js';

export type { UploadProgress } from './upload-progress.js';

// Imports over HTTP (docs/API.md, "Imports"): upload a file, then follow the job. The file is
// sent as it is (never parsed here): a string, a Blob or File (in Node 20+, `await
// fs.openAsBlob(path)`), a web ReadableStream, or any async iterable of bytes (a Node
// `fs.createReadStream(path)`), so that a large catalog streams from disk.

export type ImportFile =
  string | Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface CreateImportOptions {
  /** `json`, `ndjson` or `csv` (products); by default from a File's name or a Blob's type, else NDJSON unless a string is one JSON value */
  format?: ImportFormat;
  /** check everything, write nothing (the Import still reports its `changes` and `warnings`) */
  dryRun?: boolean;
  /** a CSV: `merge` (the default) changes only its columns, `replace` replaces whole products */
  mode?: 'merge' | 'replace';
  /** seconds (at most 60) the server waits for the import to end before answering */
  wait?: number;
  /** a retried upload with this key answers the first import instead of starting a second */
  idempotencyKey?: string;
  /**
   * called as the file goes out, with the bytes sent and the file's size when known; in a
   * browser the upload then goes through XMLHttpRequest (fetch cannot report it), in Node
   * the file is sent as a counted stream
   */
  onUploadProgress?: UploadProgress;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** between two looks (default 1000 ms) */
  intervalMs?: number;
  /** give up after this long (default: never) and answer the import as it is */
  timeoutMs?: number;
  /** called with each look while it runs */
  onProgress?: (current: Import) => void;
  signal?: AbortSignal;
}

const MEDIA_TYPE: Record<ImportFormat, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
};

const isRunning = (i: Import) => i.status === 'queued' || i.status === 'running';

export function importHelpers(api: Api) {
  const get = (id: number) => api<Import>(`/imports/${segment(id)}`);
  return {
    /** Uploads a file as an import job; answers the Import (finished, if `wait` was long enough). */
    create: (file: ImportFile, options: CreateImportOptions = {}) => {
      const headers: Record<string, string> = {};
      if (options.wait !== undefined) headers.prefer = `wait=${Math.max(0, Math.floor(options.wait))}`;
      if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
      const type = MEDIA_TYPE[options.format ?? formatOf(file)];
      const progress = options.onUploadProgress;
      let data = bodyOf(file);
      // XMLHttpRequest cannot send a stream: that one is counted as fetch reads it.
      const transport = progress && !isStream(data) ? progressFetch(progress) : undefined;
      if (progress && !transport) data = countingBody(data, progress);
      const query = queryString({ dry_run: options.dryRun || undefined, mode: options.mode });
      return api<Import>(`/imports/${query}`, {
        method: 'POST',
        headers,
        upload: { type, data },
        signal: options.signal,
        fetch: transport,
      });
    },
    get,
    /** The latest 100 imports, newest first. */
    list: () => api<{ data: Import[] }>('/imports/'),
    /** Stops a queued or running import (nothing is written); one that ended is a 409 ApiError. */
    cancel: (id: number) => api<Import>(`/imports/${segment(id)}/cancel`, { method: 'POST' }),
    /** Polls the import until it ended (succeeded, failed or canceled), or until `timeoutMs`. */
    wait: async (id: number, options: WaitOptions = {}): Promise<Import> => {
      const until = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      for (;;) {
        const current = await get(id);
        if (!isRunning(current) || Date.now() >= until) return current;
        options.onProgress?.(current);
        await sleep(Math.min(options.intervalMs ?? 1000, Math.max(0, until - Date.now())), options.signal);
      }
    },
  };
}

const isStream = (data: unknown): data is ReadableStream =>
  typeof ReadableStream !== 'undefined' && data instanceof ReadableStream;

function formatOf(file: ImportFile): ImportFormat {
  const name =
    typeof Blob !== 'undefined' && file instanceof Blob ? (file as Blob & { name?: string }).name : undefined;
  if (name) return /\.json$/i.test(name) ? 'json' : /\.csv$/i.test(name) ? 'csv' : 'ndjson';
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    if (/^text\/csv/i.test(file.type)) return 'csv';
    return /json$/i.test(file.type) && !/ndjson/i.test(file.type) ? 'json' : 'ndjson';
  }
  if (typeof file === 'string') {
    try {
      JSON.parse(file);
      return 'json';
    } catch {
      return 'ndjson';
    }
  }
  return 'ndjson';
}

function bodyOf(file: ImportFile): string | Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> {
  if (
    typeof file === 'string' ||
    file instanceof ArrayBuffer ||
    file instanceof Uint8Array ||
    (typeof Blob !== 'undefined' && file instanceof Blob) ||
    (typeof ReadableStream !== 'undefined' && file instanceof ReadableStream)
  )
    return file;
  const iterator = (file as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next: IteratorResult<Uint8Array | string> = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

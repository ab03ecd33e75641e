import type { ConditionalCache } from './conditional-cache.js';
import { ApiError, NetworkError, errorFromAnswer } from './errors.js';
import {
  DEFAULT_MAX_RETRY_WAIT_MS,
  DEFAULT_RETRIES,
  RETRY_STATUSES,
  type RetryOptions,
  backoffMs,
  retryAfterMs,
  sleep,
} from './retry.js';

// `api(path)`: one HTTP call to a project's API, answered with the parsed JSON; a non-2xx
// answer becomes an ApiError. It does not reshape answers. What it adds is what a client over
// a network needs (README.md): waiting as a 429 or 503 asks, retrying a GET that got no
// answer, an optional conditional cache, and `{ raw: true }` for the status, ETag and headers.

export interface ClientOptions extends RetryOptions {
  /** where the service lives, e.g. `https://api.example.com` (a path prefix is kept) */
  baseUrl: string;
  /** the project every path is relative to */
  projectId: string;
  /** sent as `Authorization: Bearer <apiKey>`; needed by protected endpoints only */
  apiKey?: string;
  /** another fetch (a test double, or one with a proxy agent); the global one by default */
  fetch?: typeof fetch;
  /** keep GET answers and revalidate them with If-None-Match (memoryCache(), fileCache(dir)) */
  cache?: ConditionalCache;
}

export interface RequestOptions {
  /** GET by default; POST when a body is given */
  method?: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  /** sent as JSON */
  body?: unknown;
  /** sent as it is, with its media type (an import's file); a stream is sent once, never retried */
  upload?: { type: string; data: string | Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> };
  /** extra request headers, e.g. If-None-Match or If-Match */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** another fetch for this one call (an upload that reports its progress: upload-progress.ts) */
  fetch?: typeof fetch;
  /** answer with `{ status, etag, headers, body }` instead of the body; a 304 then resolves */
  raw?: boolean;
  /** answer with the body as a stream of bytes, unread (an export); an error answer is still an ApiError */
  stream?: boolean;
}

/** What `api(path, { raw: true })` resolves to. */
export interface RawAnswer<T = unknown> {
  /**
   * The status of what was asked: 200 when the cache answered a 304 to the If-None-Match it
   * added itself (then `fromCache` is true); 304 only for a request the caller made
   * conditional with its own If-None-Match (then `body` is undefined).
   */
  status: number;
  etag: string | null;
  headers: Headers;
  body: T;
  /** the body came from the conditional cache: the server answered 304 to the cache's own If-None-Match */
  fromCache: boolean;
}

export interface Api {
  (path: string, options: RequestOptions & { stream: true }): Promise<ReadableStream<Uint8Array>>;
  <T = unknown>(path: string, options: RequestOptions & { raw: true }): Promise<RawAnswer<T>>;
  <T = unknown>(path: string, options?: RequestOptions): Promise<T>;
}

/** `root`: what paths are relative to; the project's by default (the admin client: the projects). */
export function createApi(options: ClientOptions, root = projectRoot(options.baseUrl, options.projectId)): Api {
  const { apiKey, cache } = options;
  const retryCount = options.retries ?? DEFAULT_RETRIES;
  const maxWait = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  // The highest Storefront-Version this client saw of its project, sent back with every
  // request: behind read replicas the service then answers from a database at least that new,
  // so that a caller never reads an older state than one it saw or wrote (CONTRACT 16).
  let seen = 0;

  async function send(
    method: string,
    url: string,
    init: RequestInit,
    once: boolean,
    transport?: typeof fetch,
  ): Promise<Response> {
    const doFetch = transport ?? options.fetch ?? fetch;
    const retries = once ? 0 : retryCount;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, init);
      } catch (cause) {
        // An abort is the caller's own doing: hand it back as it is.
        if (cause && typeof cause === 'object' && (cause as Error).name === 'AbortError') throw cause;
        // Only a read is safe to send again: a POST may have been applied before the line broke.
        if (attempt <= retries && (method === 'GET' || method === 'HEAD')) {
          await sleep(backoffMs(attempt), init.signal ?? undefined);
          continue;
        }
        throw new NetworkError(`${method} ${url}: ${reasonOf(cause)}`, cause);
      }
      if (RETRY_STATUSES.includes(response.status) && attempt <= retries) {
        const wait = Math.max(retryAfterMs(response.headers.get('retry-after')), backoffMs(attempt));
        // Longer than allowed: the caller gets the 429 or 503 now rather than a hung build.
        if (wait <= maxWait) {
          await response.body?.cancel();
          await sleep(wait, init.signal ?? undefined);
          continue;
        }
      }
      return response;
    }
  }

  return async function api(path: string, request: RequestOptions = {}): Promise<unknown> {
    if (typeof path !== 'string' || path.charAt(0) !== '/') {
      throw new TypeError(
        `api(path): the path must start with "/" (relative to the project), got ${JSON.stringify(path)}`,
      );
    }
    const upload = request.upload;
    const method = request.method ?? (request.body === undefined && !upload ? 'GET' : 'POST');
    const headers: Record<string, string> = { accept: request.stream ? '*/*' : 'application/json', ...request.headers };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const ownVersion = Object.keys(headers).some((name) => name.toLowerCase() === 'storefront-version');
    if (seen > 0 && !ownVersion) headers['storefront-version'] = String(seen);
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (upload) headers['content-type'] = upload.type;
    const streamed = typeof ReadableStream !== 'undefined' && upload?.data instanceof ReadableStream;
    const url = root + path;

    const ownCondition = Object.keys(headers).some((name) => name.toLowerCase() === 'if-none-match');
    const conditional = cache !== undefined && method === 'GET' && !ownCondition && !request.stream;
    const stored = conditional ? await cache.get(url) : undefined;
    if (stored) headers['if-none-match'] = stored.etag;

    const response = await send(
      method,
      url,
      {
        method,
        headers,
        body: upload ? upload.data : request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal,
        // fetch sends a stream only half-duplex (Node requires saying so).
        ...(streamed ? { duplex: 'half' } : {}),
      } as RequestInit,
      streamed,
      request.fetch,
    );
    const version = Number(response.headers.get('storefront-version'));
    if (Number.isSafeInteger(version) && version > seen) seen = version;
    if (request.stream && response.ok && response.body) return response.body;
    const etag = response.headers.get('etag');
    const fromCache = response.status === 304 && stored !== undefined;
    const body = fromCache ? stored.body : await parse(response, method, url);

    if (response.status === 304 && !fromCache && !request.raw) {
      throw new ApiError(
        304,
        'not_modified',
        `${method} ${url}: 304 Not Modified (the If-None-Match sent still matches); pass { raw: true } to read the status`,
        undefined,
      );
    }
    if (!response.ok && response.status !== 304) throw errorFromAnswer(response.status, response.statusText, body);
    if (
      conditional &&
      response.status === 200 &&
      etag &&
      !/no-store/i.test(response.headers.get('cache-control') ?? '')
    )
      await cache.set(url, { etag, body });
    if (fromCache && etag && etag !== stored.etag) await cache!.set(url, { etag, body });
    if (!request.raw) return body;
    // A 304 the cache asked for is the cache's business: the caller asked a plain GET, and
    // gets its 200 with the stored body (fromCache says where it came from).
    const status = fromCache ? 200 : response.status;
    return { status, etag, headers: response.headers, body, fromCache } satisfies RawAnswer;
  } as Api;
}

async function parse(response: Response, method: string, url: string): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A 2xx that is not JSON did not come from the API (a captive portal, a misrouted proxy).
    if (response.ok)
      throw new ApiError(response.status, 'invalid_response', `${method} ${url}: the answer is not JSON`, text);
    return text;
  }
}

/**
 * The plain reason a request got no answer. fetch says only "fetch failed" and keeps the
 * reason in `cause` (an AggregateError when every address of a name was refused):
 * "connect ECONNREFUSED 127.0.0.1:3000", "getaddrinfo ENOTFOUND api.example".
 */
export function reasonOf(error: unknown): string {
  let current = error as (Error & { cause?: unknown; errors?: unknown[] }) | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    const next = current.cause ?? current.errors?.[0];
    if (!next || typeof next !== 'object') break;
    current = next as typeof current;
  }
  return current?.message || String(error);
}

/** `https://host/prefix/` + `my-shop` -> `https://host/prefix/v2/projects/my-shop` */
export function projectRoot(baseUrl: string, projectId: string): string {
  if (!baseUrl) throw new TypeError('storefront: baseUrl is required, e.g. https://api.example.com');
  if (!projectId) throw new TypeError('storefront: projectId is required');
  return `${baseUrl.replace(/\/+$/, '')}/v2/projects/${encodeURIComponent(projectId)}`;
}

import { ApiError, NetworkError, errorFromAnswer } from './errors.js';

// `api(path)`: one HTTP call to a project's API, answered with the parsed JSON. It adds no
// behaviour of its own (no retry, no cache, no reshaping): what the API answers is what the
// caller gets, and a non-2xx answer becomes an ApiError.

export interface ClientOptions {
  /** where the service lives, e.g. `https://api.example.com` (a path prefix is kept) */
  baseUrl: string;
  /** the project every path is relative to */
  projectId: string;
  /** sent as `Authorization: Bearer <apiKey>`; needed by protected endpoints only */
  apiKey?: string;
  /** another fetch (a test double, or one with a proxy agent); the global one by default */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** GET by default; POST when a body is given */
  method?: 'GET' | 'HEAD' | 'POST';
  /** sent as JSON */
  body?: unknown;
  /** extra request headers, e.g. If-None-Match */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type Api = <T = unknown>(path: string, options?: RequestOptions) => Promise<T>;

export function createApi(options: ClientOptions): Api {
  const { apiKey } = options;
  const root = projectRoot(options.baseUrl, options.projectId);
  return async function api<T>(path: string, request: RequestOptions = {}): Promise<T> {
    if (typeof path !== 'string' || path.charAt(0) !== '/') {
      throw new TypeError(
        `api(path): the path must start with "/" (relative to the project), got ${JSON.stringify(path)}`,
      );
    }
    const method = request.method ?? (request.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const url = root + path;
    const doFetch = options.fetch ?? fetch;

    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal,
      });
    } catch (cause) {
      // An abort is the caller's own doing: hand it back as it is.
      if (cause && typeof cause === 'object' && (cause as Error).name === 'AbortError') throw cause;
      throw new NetworkError(`${method} ${url} failed: ${(cause as Error)?.message ?? String(cause)}`, cause);
    }

    const text = await response.text();
    let body: unknown = text;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        // A 2xx that is not JSON did not come from the API (a captive portal, a misrouted proxy).
        if (response.ok)
          throw new ApiError(response.status, 'invalid_response', `${method} ${url}: the answer is not JSON`, text);
      }
    } else {
      body = undefined;
    }
    if (!response.ok) throw errorFromAnswer(response.status, response.statusText, body);
    return body as T;
  };
}

/** `https://host/prefix/` + `my-shop` -> `https://host/prefix/v2/projects/my-shop` */
export function projectRoot(baseUrl: string, projectId: string): string {
  if (!baseUrl) throw new TypeError('storefront: baseUrl is required, e.g. https://api.example.com');
  if (!projectId) throw new TypeError('storefront: projectId is required');
  return `${baseUrl.replace(/\/+$/, '')}/v2/projects/${encodeURIComponent(projectId)}`;
}

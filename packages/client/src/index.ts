import { type Api, type ClientOptions, createApi } from './api.js';
import type { ApiError, NetworkError } from './errors.js';
import { resourceHelpers } from './resources.js';

// The Storefront client for Node 20+ and bundlers: `api(path)` plus typed helpers per resource.
// It uses the platform's fetch and imports nothing at run time, so it also runs in browsers
// (the /toolkit.js script is this same code, bundled).

export type Client = ReturnType<typeof resourceHelpers> & {
  /** `api('/products/?perpage=5')`: one call, relative to the project, answered with the parsed JSON */
  api: Api;
};

/** What `window.storefront` of /toolkit.js holds (browser.ts): the client, settable by `init()`. */
export type Storefront = Client & {
  init(settings: StorefrontSettings): Storefront;
  ApiError: typeof ApiError;
  NetworkError: typeof NetworkError;
};
export type StorefrontSettings = Partial<Pick<ClientOptions, 'baseUrl' | 'projectId' | 'apiKey'>>;

export function createClient(options: ClientOptions): Client {
  const api = createApi(options);
  return { api, ...resourceHelpers(api) };
}

export type { Api, ClientOptions, RawAnswer, RequestOptions } from './api.js';
export { memoryCache, type CachedAnswer, type ConditionalCache } from './conditional-cache.js';
export type { RetryOptions } from './retry.js';
export { ApiError, NetworkError, type ErrorBody } from './errors.js';
export type * from './records.js';

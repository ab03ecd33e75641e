import { type Api, type ClientOptions, createApi } from './api.js';
import { changeHelpers } from './changes.js';
import type { ApiError, CursorGoneError, NetworkError } from './errors.js';
import { exportHelpers } from './exports.js';
import { importHelpers } from './imports.js';
import { operatorHelpers } from './operator.js';
import { resourceHelpers } from './resources.js';
import { type Mirror, type SyncOptions, syncMirror } from './sync.js';

// The Storefront client for Node 20+ and bundlers: `api(path)` plus typed helpers per resource
// and the change feed. It uses the platform's fetch and imports nothing at run time, so it
// also runs in browsers (the /toolkit.js script is this same code, bundled).

/** Every helper over one api function: the client's methods, in Node and in the toolkit alike. */
export function clientHelpers(api: Api) {
  return {
    ...resourceHelpers(api),
    ...changeHelpers(api),
    /** Brings `mirror` up to date from the change feed and says what changed (sync.ts). */
    sync: (mirror: Mirror, options?: SyncOptions) => syncMirror(api, mirror, options),
  };
}

export type Client = ReturnType<typeof clientHelpers> & {
  /** `api('/products/?perpage=5')`: one call, relative to the project, answered with the parsed JSON */
  api: Api;
  /** Imports over HTTP: create (upload a file), get, list, wait, cancel (imports.ts) */
  imports: ReturnType<typeof importHelpers>;
  /** Exports as streams of bytes: products and orders as CSV, the project as NDJSON (exports.ts) */
  exports: ReturnType<typeof exportHelpers>;
} & ReturnType<typeof operatorHelpers>;

/**
 * What `window.storefront` of /toolkit.js holds (browser.ts): the client, settable by `init()`.
 * Without imports, exports and the operator's calls (project, keys, webhooks): a shop's pages
 * never hold a key that may write a catalog, read all of it or manage keys (and the script
 * stays small).
 */
export type Storefront = Omit<Client, 'imports' | 'exports' | 'project' | 'keys' | 'webhooks'> & {
  init(settings: StorefrontSettings): Storefront;
  ApiError: typeof ApiError;
  NetworkError: typeof NetworkError;
  CursorGoneError: typeof CursorGoneError;
};
export type StorefrontSettings = Partial<Pick<ClientOptions, 'baseUrl' | 'projectId' | 'apiKey'>>;

export function createClient(options: ClientOptions): Client {
  const api = createApi(options);
  return {
    api,
    ...clientHelpers(api),
    ...operatorHelpers(api),
    imports: importHelpers(api),
    exports: exportHelpers(api),
  };
}

export { createAdminClient, type AdminClient, type AdminClientOptions } from './admin.js';
export type { Api, ClientOptions, RawAnswer, RequestOptions } from './api.js';
export { DEFAULT_CHANGE_TYPES, type ChangeFeed, type ChangesOptions } from './changes.js';
export { memoryCache, type CachedAnswer, type ConditionalCache } from './conditional-cache.js';
export type { RetryOptions } from './retry.js';
export type { CreateImportOptions, ImportFile, UploadProgress, WaitOptions } from './imports.js';
export { ApiError, CursorGoneError, NetworkError, type ErrorBody } from './errors.js';
export {
  mirrorKey,
  recordsOf,
  type Mirror,
  type MirrorKey,
  type SyncAdded,
  type SyncChanged,
  type SyncOptions,
  type SyncRemoved,
  type SyncResult,
} from './sync.js';
export type * from './records.js';
export { DEFAULT_MAX_PASSES, type ListWalk, type WalkOptions } from './list-walk.js';

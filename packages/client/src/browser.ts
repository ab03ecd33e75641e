import { type Api, type ClientOptions, type RequestOptions, createApi } from './api.js';
import { ApiError, CursorGoneError, NetworkError } from './errors.js';
import { type Storefront, type StorefrontSettings as Settings, clientHelpers } from './index.js';

// The entry of /toolkit.js. `<script src="{base_url}/toolkit.js" data-project="demo">` defines
// window.storefront: the base address comes from the script's own src, the project from
// data-project; storefront.init({ baseUrl, projectId, apiKey }) sets them by hand.

declare global {
  interface Window {
    storefront: Storefront;
  }
}

/** What the script tag says: read now, while document.currentScript is this script. */
function fromScriptTag(): Settings {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script || !script.src) return {};
  const src = new URL(script.src, document.baseURI);
  // https://api.example.com/prefix/toolkit.js -> https://api.example.com/prefix
  const baseUrl = src.origin + src.pathname.replace(/\/[^/]*$/, '');
  return { baseUrl, projectId: script.getAttribute('data-project') || undefined };
}

let settings: Settings = fromScriptTag();
let configured: Api | undefined;

// One stable api function that reads the settings of the moment, so init() also applies to
// helpers and references taken before it. Mistakes reject like any other failure.
const api = ((path: string, options?: RequestOptions) =>
  new Promise((resolve) => {
    if (!configured) {
      if (!settings.baseUrl || !settings.projectId) {
        throw new Error(
          'storefront: no project set; add data-project="<project_id>" to the script tag or call storefront.init({ baseUrl, projectId })',
        );
      }
      configured = createApi(settings as ClientOptions);
    }
    resolve(configured(path, options));
  })) as Api;

const storefront: Storefront = {
  api,
  ...clientHelpers(api),
  init(next) {
    settings = { ...settings, ...next };
    configured = undefined;
    return storefront;
  },
  ApiError,
  NetworkError,
  CursorGoneError,
};

window.storefront = storefront;

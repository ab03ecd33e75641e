import { signal } from '@preact/signals';

// The address is the state of a view: the path names the screen, the query its filters, so
// that a view can be bookmarked, shared and reloaded. Paths live under /console/; the server
// answers index.html for every one of them (src/client/console-route.ts).

export const BASE = '/console';

export interface Place {
  /** the path below /console, e.g. "/orders/12" ("/" for home) */
  path: string;
  query: URLSearchParams;
}

export const place = signal<Place>(read());

function read(): Place {
  const below = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return { path: below || '/', query: new URLSearchParams(location.search) };
}

addEventListener('popstate', () => (place.value = read()));

/** The address of a place: `href('/orders', { payment_status: 'paid' })`. */
export function href(path: string, query?: Record<string, string | undefined> | URLSearchParams): string {
  const params = query instanceof URLSearchParams ? query : new URLSearchParams();
  if (query && !(query instanceof URLSearchParams))
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

/** What leaving the current view would lose (unsaved edits), asked before any move. */
let unsaved: (() => string | undefined) | undefined;

/**
 * While `what` answers a sentence, moving to another place of the console, reloading or
 * closing the tab asks first. Answers the function that ends the guard.
 */
export function guardLeaving(what: () => string | undefined): () => void {
  const onUnload = (event: BeforeUnloadEvent) => {
    if (what()) event.preventDefault();
  };
  unsaved = what;
  addEventListener('beforeunload', onUnload);
  return () => {
    if (unsaved === what) unsaved = undefined;
    removeEventListener('beforeunload', onUnload);
  };
}

/** Goes to an address of the console; `replace` for changes that need no Back step. */
export function navigate(to: string, replace = false): void {
  const loses = unsaved?.();
  if (loses && !confirm(`${loses} Leave anyway?`)) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  place.value = read();
}

/** Sets some query parameters of the current place (empty ones are removed). */
export function setQuery(changes: Record<string, string | undefined>, replace = false): void {
  const params = new URLSearchParams(place.value.query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') params.delete(name);
    else params.set(name, value);
  }
  navigate(href(place.value.path, params), replace);
}

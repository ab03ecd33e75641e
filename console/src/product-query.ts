import type { ProductListQuery } from 'storefront-client';
import { field } from './format.js';
import { fromUnits } from './money.js';

// The products screen's view in the address (so a view can be bookmarked, shared and saved):
// SPEC's substring `search`, one `category`, hidden ones, and the shopper search of CONTRACT 17
// (`q`, the price, stock, inventory type and categories filters). What the list asks the API
// and what a submitted form writes to the address are both here.

/** The address's parameters that are CONTRACT 17's shopper search, not SPEC's list filters. */
export const SHOPPER = ['q', 'price_min', 'price_max', 'in_stock', 'inventory_type', 'categories'] as const;

/** The facets the screen shows beside its filters. */
export const FACETS = 'category,price,in_stock,inventory_type';

const whole = (text: string | null) => (text !== null && /^\d+$/.test(text) ? Number(text) : undefined);

export function productQuery(params: URLSearchParams): ProductListQuery {
  const query: ProductListQuery = {};
  const text = (name: string) => params.get(name) || undefined;
  query.search = text('search');
  query.q = text('q');
  query.order = text('order');
  query.category = whole(params.get('category'));
  if (params.get('fetch_hidden') === 'true') query.fetch_hidden = true;
  query.page = whole(params.get('page'));
  query.perpage = whole(params.get('perpage'));
  query.price_min = whole(params.get('price_min'));
  query.price_max = whole(params.get('price_max'));
  const stock = params.get('in_stock');
  if (stock === 'true' || stock === 'false') query.in_stock = stock === 'true';
  const inventory = params.get('inventory_type');
  if (inventory === 'simple' || inventory === 'advanced') query.inventory_type = inventory;
  query.categories = text('categories');
  for (const name of Object.keys(query) as (keyof ProductListQuery)[])
    if (query[name] === undefined) delete query[name];
  return query;
}

/** The order a list has without an `order` in the address: relevance with a `q`. */
export const defaultOrder = (params: URLSearchParams): string => (params.get('q') ? 'relevance' : 'date_desc');

/** A shopper-search filter is set (the facet counts are then asked for). */
export const shopperFiltered = (params: URLSearchParams): boolean => SHOPPER.some((name) => params.get(name));

export interface Submitted {
  /** the address's new parameters */
  query: Record<string, string | undefined>;
  /** a price field that is not an amount of the currency */
  problem?: string;
}

/**
 * The address a submitted filter form asks for. The text goes to `q` (words, typos allowed)
 * or, with "exact text", to `search` (a substring). A sort left as it was shown follows the
 * new default, so that typing a search sorts by relevance; relevance without words is dropped.
 */
export function submittedQuery(form: FormData, shown: URLSearchParams, currency: string): Submitted {
  const text = (name: string) => field(form, name).trim() || undefined;
  const words = text('text');
  const exact = form.get('exact') === 'true';
  const q = exact ? undefined : words;
  let order = text('order');
  // Left at the default it was shown with: the new default (relevance once there are words).
  if (!shown.get('order') && order === defaultOrder(shown)) order = undefined;
  if ((order === 'relevance' || order === 'date_desc') && !q) order = undefined;
  const price = (name: string, label: string) => {
    const typed = text(name);
    if (typed === undefined) return undefined;
    const amount = fromUnits(typed, currency);
    if (amount === undefined || amount < 0) throw new Error(`${label}: type an amount in ${currency}, such as 12.50`);
    return String(amount);
  };
  const query: Record<string, string | undefined> = {
    q,
    search: exact ? words : undefined,
    order,
    category: text('category'),
    fetch_hidden: form.get('fetch_hidden') ? 'true' : undefined,
    perpage: text('perpage'),
    in_stock: text('in_stock'),
    inventory_type: text('inventory_type'),
    categories:
      form
        .getAll('categories')
        .filter((v) => typeof v === 'string')
        .join(',') || undefined,
  };
  try {
    query.price_min = price('price_min', 'Lowest price');
    query.price_max = price('price_max', 'Highest price');
  } catch (e) {
    return { query, problem: (e as Error).message };
  }
  return { query };
}

import { invalid } from '../../../errors.js';
import { parseIdList } from '../../../http/params.js';
import { ORDER_CLAUSES, type OrderClause, type ProductListQuery } from '../schemas.js';
import type { FacetName } from './facets.js';
import type { ShopSearch } from './page.js';
import { parsePriceRanges } from './price-ranges.js';
import { MAX_QUERY_WORDS, queryWords } from './words.js';

/** CONTRACT 17's parameters of a products list request, or undefined when it has none. */
export function shopSearchOf(q: ProductListQuery): ShopSearch | undefined {
  const given =
    q.q !== undefined ||
    q.price_min !== undefined ||
    q.price_max !== undefined ||
    q.in_stock !== undefined ||
    q.inventory_type !== undefined ||
    q.categories !== undefined ||
    q.facets !== undefined;
  if (q.price_ranges !== undefined && !q.facets?.split(',').includes('price')) {
    throw invalid('price_ranges', 'applies only with facets=price');
  }
  if (!given) return undefined;
  if (q.price_min !== undefined && q.price_max !== undefined && q.price_min > q.price_max) {
    throw invalid('price_min', 'must not be above price_max');
  }
  const words = q.q === undefined ? undefined : queryWords(q.q);
  if (words && words.length > MAX_QUERY_WORDS) throw invalid('q', `must hold at most ${MAX_QUERY_WORDS} words`);
  return {
    words: words?.length ? words : undefined,
    relevance: relevanceAsked(q),
    priceMin: q.price_min,
    priceMax: q.price_max,
    inStock: q.in_stock,
    inventoryType: q.inventory_type,
    categories: q.categories === undefined ? undefined : parseIdList(q.categories, 'categories'),
    facets: q.facets === undefined ? undefined : ([...new Set(q.facets.split(','))] as FacetName[]),
    priceRanges: q.price_ranges === undefined ? undefined : parsePriceRanges(q.price_ranges),
  };
}

/** `relevance` leads the order: asked first in `order`, or the default with `q`. */
function relevanceAsked(q: ProductListQuery): boolean {
  return q.order === undefined ? q.q !== undefined : q.order.split(',')[0] === 'relevance';
}

/** `order=relevance,price_asc`: the clauses after relevance (relevance only first, and only with `q`). */
export function listOrder(q: ProductListQuery): OrderClause[] {
  if (q.order === undefined) return q.q !== undefined ? [] : ['date_desc'];
  const clauses = q.order.split(',');
  const rest = clauses[0] === 'relevance' ? clauses.slice(1) : clauses;
  if (clauses[0] === 'relevance' && q.q === undefined) throw invalid('order', 'relevance needs q');
  if (!rest.every((c): c is OrderClause => (ORDER_CLAUSES as readonly string[]).includes(c))) {
    throw invalid(
      'order',
      `must be one or more comma-separated clauses of ${ORDER_CLAUSES.join(', ')}, relevance only first and only with q`,
    );
  }
  return rest;
}

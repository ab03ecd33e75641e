import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Category, ProductFacets } from 'storefront-client';
import { SHOPPER, defaultOrder, submittedQuery } from '../product-query.js';
import { href, navigate } from '../router.js';
import { CategoryFacet, Choices, PriceFacet } from './product-facets.js';

// The products screen's filters: the search box (CONTRACT 17's `q`: words, typos allowed,
// ranked by relevance; or SPEC's exact substring), the sort, and beside the shopper filters
// (price, stock, inventory type, categories) their facet counts for the current view, each
// counted with every other filter applied. Written to the address on submit.

const ORDERS = [
  ['relevance', 'Best match (with a search)'],
  ['date_desc', 'Newest first'],
  ['date_asc', 'Oldest first'],
  ['name_asc', 'Name A–Z'],
  ['name_desc', 'Name Z–A'],
  ['price_asc', 'Price, low to high'],
  ['price_desc', 'Price, high to low'],
  ['custom_asc', 'Custom order'],
  ['custom_desc', 'Custom order, reversed'],
] as const;

interface Props {
  params: URLSearchParams;
  categories: Category[] | undefined;
  /** the counts of the current view (undefined while they load) */
  facets: ProductFacets | undefined;
  currency: string;
  hiddenAllowed: boolean;
  /** "Narrow down" starts open (on a wide screen): a search or a shopper filter is set */
  open: boolean;
  /** the operator opened "Narrow down": the counts are wanted */
  onOpen: () => void;
}

export function ProductFilters(props: Props): JSX.Element {
  const { params, categories, facets, currency, hiddenAllowed, open, onOpen } = props;
  const [problem, setProblem] = useState('');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const { query, problem: bad } = submittedQuery(
      new FormData(event.currentTarget as HTMLFormElement),
      params,
      currency,
    );
    setProblem(bad ?? '');
    if (!bad) navigate(href('/products', query));
  };
  const exact = Boolean(params.get('search')) && !params.get('q');
  const order = params.get('order') ?? defaultOrder(params);
  const set = SHOPPER.filter((name) => name !== 'q' && params.get(name)).length;
  const choices = (name: string, legend: string, list: [string, string, number | undefined][]) => (
    <Choices params={params} name={name} legend={legend} choices={list} />
  );
  const wide = typeof matchMedia === 'undefined' || matchMedia('(min-width: 761px)').matches;

  return (
    <form class="product-search" onSubmit={submit} aria-label="Find products" key={params.toString()}>
      <SearchBar params={params} order={order} exact={exact} hiddenAllowed={hiddenAllowed} />
      <details
        class="filter-box facets"
        open={open && wide}
        onToggle={(event) => {
          if (event.currentTarget.open) onOpen();
        }}
      >
        <summary>Narrow down{set > 0 ? ` (${set} set)` : ''}</summary>
        <div class="facet-groups">
          <PriceFacet params={params} facets={facets} currency={currency} problem={problem} />
          {choices('in_stock', 'Stock', [
            ['', 'any', undefined],
            ['true', 'in stock', facets?.in_stock?.true],
            ['false', 'out of stock', facets?.in_stock?.false],
          ])}
          {choices('inventory_type', 'Inventory', [
            ['', 'any', undefined],
            ['simple', 'simple', facets?.inventory_type?.simple],
            ['advanced', 'advanced (counted)', facets?.inventory_type?.advanced],
          ])}
          <CategoryFacet params={params} categories={categories} facets={facets} />
        </div>
        <button type="submit">Apply these filters</button>
      </details>
    </form>
  );
}

/** The search box, exact or not, the sort, hidden products and the page size. */
function SearchBar({
  params,
  order,
  exact,
  hiddenAllowed,
}: {
  params: URLSearchParams;
  order: string;
  exact: boolean;
  hiddenAllowed: boolean;
}): JSX.Element {
  return (
    <div class="filters">
      <label class="wide">
        Search
        <input
          name="text"
          type="search"
          defaultValue={params.get('q') ?? params.get('search') ?? ''}
          placeholder="words of the name, description or SKU"
        />
      </label>
      <label class="check" title="Without it, words match with typos and the best matches come first">
        <input name="exact" type="checkbox" value="true" defaultChecked={exact} />
        Exact text
      </label>
      <label class="wide">
        Sort
        <select name="order">
          {ORDERS.map(([value, label]) => (
            <option key={value} value={value} selected={value === order}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label class="check" title={hiddenAllowed ? undefined : 'Needs the scope products:read_hidden'}>
        <input
          name="fetch_hidden"
          type="checkbox"
          value="true"
          disabled={!hiddenAllowed}
          defaultChecked={params.get('fetch_hidden') === 'true'}
        />
        Hidden products too{!hiddenAllowed && <span class="scope-note"> (needs products:read_hidden)</span>}
      </label>
      <label>
        Per page
        <select name="perpage">
          <option value="">20</option>
          <option value="50" selected={params.get('perpage') === '50'}>
            50
          </option>
          <option value="100" selected={params.get('perpage') === '100'}>
            100
          </option>
        </select>
      </label>
      <button type="submit" class="primary">
        Show products
      </button>
    </div>
  );
}

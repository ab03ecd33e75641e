import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Category, ProductFacets } from 'storefront-client';
import { formatMoney, toUnits } from '../money.js';
import { SHOPPER, defaultOrder, submittedQuery } from '../product-query.js';
import { Link } from '../parts/link.js';
import { href, navigate } from '../router.js';

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

/** The categories in the tree's order, each with its depth. */
function flatten(tree: Category[], depth = 0): { category: Category; depth: number }[] {
  return tree.flatMap((c) => [{ category: c, depth }, ...flatten(c.subcategories, depth + 1)]);
}

const counted = (n: number | undefined) => (n === undefined ? '' : ` (${n.toLocaleString()})`);

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
  const chosen = new Set((params.get('categories') ?? '').split(',').filter(Boolean));
  const counts = new Map(facets?.category?.map((c) => [c.id, c.count]));
  // A category without a match is left out once the counts are in (ticking it would add
  // nothing), unless it is ticked; a parent's count holds its subtree's, so the tree stays whole.
  const shownCategories = flatten(categories ?? []).filter(
    ({ category }) => !facets || counts.has(category.id) || chosen.has(String(category.id)),
  );
  const set = SHOPPER.filter((name) => name !== 'q' && params.get(name)).length;
  const wide = typeof matchMedia === 'undefined' || matchMedia('(min-width: 761px)').matches;
  const unitsOf = (name: string) => {
    const amount = params.get(name);
    return amount && /^\d+$/.test(amount) ? toUnits(Number(amount), currency) : '';
  };
  const radios = (name: string, legend: string, choices: [string, string, number | undefined][]) => (
    <fieldset>
      <legend>{legend}</legend>
      {choices.map(([value, label, n]) => (
        <label class="check" key={value}>
          <input type="radio" name={name} value={value} defaultChecked={(params.get(name) ?? '') === value} />
          {label}
          {counted(n)}
        </label>
      ))}
    </fieldset>
  );
  // A price range of the facet as a link that sets both ends ([from, to): the highest is to - 1).
  const rangeLink = (from: number | null, to: number | null) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (from) next.set('price_min', String(from));
    else next.delete('price_min');
    if (to !== null) next.set('price_max', String(to - 1));
    else next.delete('price_max');
    return href('/products', next);
  };
  const money = (amount: number) => formatMoney(amount, currency);

  return (
    <form class="product-search" onSubmit={submit} aria-label="Find products" key={params.toString()}>
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
      <details
        class="filter-box facets"
        open={open && wide}
        onToggle={(event) => {
          if (event.currentTarget.open) onOpen();
        }}
      >
        <summary>Narrow down{set > 0 ? ` (${set} set)` : ''}</summary>
        <div class="facet-groups">
          <fieldset>
            <legend>Price ({currency})</legend>
            <div class="price-range">
              <label>
                From
                <input name="price_min" inputMode="decimal" size={8} defaultValue={unitsOf('price_min')} />
              </label>
              <label>
                To
                <input name="price_max" inputMode="decimal" size={8} defaultValue={unitsOf('price_max')} />
              </label>
            </div>
            {problem && (
              <p class="field-error" role="alert">
                {problem}
              </p>
            )}
            {facets?.price && facets.price.ranges.length > 0 && (
              <ul class="plain ranges" aria-label="Prices of the matches">
                {facets.price.ranges.map((r) => (
                  <li key={`${r.from}-${r.to}`}>
                    <Link to={rangeLink(r.from, r.to)}>
                      {r.to === null ? `${money(r.from ?? 0)} and more` : `${money(r.from ?? 0)} – ${money(r.to - 1)}`}
                    </Link>
                    {counted(r.count)}
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
          {radios('in_stock', 'Stock', [
            ['', 'any', undefined],
            ['true', 'in stock', facets?.in_stock?.true],
            ['false', 'out of stock', facets?.in_stock?.false],
          ])}
          {radios('inventory_type', 'Inventory', [
            ['', 'any', undefined],
            ['simple', 'simple', facets?.inventory_type?.simple],
            ['advanced', 'advanced (counted)', facets?.inventory_type?.advanced],
          ])}
          <fieldset class="category-facet">
            <legend>Categories</legend>
            <p class="muted hint">
              Any of those ticked; a category counts its subcategories.
              {facets && ' Those without a match are left out.'}
            </p>
            {params.get('category') && (
              <label class="check">
                <input type="checkbox" name="category" value={params.get('category')!} defaultChecked />
                only directly in{' '}
                {flatten(categories ?? []).find((c) => String(c.category.id) === params.get('category'))?.category
                  .name ?? `category ${params.get('category')}`}
              </label>
            )}
            {facets && shownCategories.length === 0 && <p class="muted">No category holds a match.</p>}
            {shownCategories.map(({ category, depth }) => (
              <label class="check" key={category.id} style={{ paddingLeft: `${depth * 1.1}rem` }}>
                <input
                  type="checkbox"
                  name="categories"
                  value={category.id}
                  defaultChecked={chosen.has(String(category.id))}
                />
                {category.name}
                {facets && counted(counts.get(category.id) ?? 0)}
              </label>
            ))}
          </fieldset>
        </div>
        <button type="submit">Apply these filters</button>
      </details>
    </form>
  );
}

import type { JSX } from 'preact';
import type { Category, ProductFacets } from 'storefront-client';
import { formatMoney, toUnits } from '../money.js';
import { Link } from '../parts/link.js';
import { href } from '../router.js';

// The shopper filters of the products screen (product-filters.tsx), each with its facet
// counts for the current view: price with its ranges, a choice of one, and categories.

/** The categories in the tree's order, each with its depth. */
export function flatten(tree: Category[], depth = 0): { category: Category; depth: number }[] {
  return tree.flatMap((c) => [{ category: c, depth }, ...flatten(c.subcategories, depth + 1)]);
}

const counted = (n: number | undefined) => (n === undefined ? '' : ` (${n.toLocaleString()})`);

/** The price bounds (typed in currency units) and the facet's ranges as links that set both. */
export function PriceFacet({
  params,
  facets,
  currency,
  problem,
}: {
  params: URLSearchParams;
  facets: ProductFacets | undefined;
  currency: string;
  problem: string;
}): JSX.Element {
  const unitsOf = (name: string) => {
    const amount = params.get(name);
    return amount && /^\d+$/.test(amount) ? toUnits(Number(amount), currency) : '';
  };
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
  );
}

/** One of several values of a filter, each with its count. */
export function Choices({
  params,
  name,
  legend,
  choices,
}: {
  params: URLSearchParams;
  name: string;
  legend: string;
  choices: [string, string, number | undefined][];
}): JSX.Element {
  return (
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
}

/** The categories to tick (any of them), each with its count. */
export function CategoryFacet({
  params,
  categories,
  facets,
}: {
  params: URLSearchParams;
  categories: Category[] | undefined;
  facets: ProductFacets | undefined;
}): JSX.Element {
  const chosen = new Set((params.get('categories') ?? '').split(',').filter(Boolean));
  const counts = new Map(facets?.category?.map((c) => [c.id, c.count]));
  // A category without a match is left out once the counts are in (ticking it would add
  // nothing), unless it is ticked; a parent's count holds its subtree's, so the tree stays whole.
  const shownCategories = flatten(categories ?? []).filter(
    ({ category }) => !facets || counts.has(category.id) || chosen.has(String(category.id)),
  );
  return (
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
          {flatten(categories ?? []).find((c) => String(c.category.id) === params.get('category'))?.category.name ??
            `category ${params.get('category')}`}
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
  );
}

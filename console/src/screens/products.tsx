import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { field } from '../format.js';
import { Action } from '../parts/action.js';
import { ExportButton } from '../parts/export-button.js';
import type { Category, Product, ProductListQuery } from 'storefront-client';
import { ListTable } from '../parts/list-table.js';
import { Pager } from '../parts/pager.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { href, navigate, place } from '../router.js';
import { api, can } from '../session.js';
import { SavedViews } from '../parts/saved-views.js';
import { BulkEditor } from './bulk-editor.js';
import { ProductRow } from './product-row.js';

// Products: search, every sort order, one category, hidden ones (products:read_hidden), pages
// from the API; each row edits in place (product-row.tsx), or the whole page at once in the
// bulk editor (bulk-editor.tsx, saved as one batch update).

const ORDERS = [
  ['date_desc', 'Newest first'],
  ['date_asc', 'Oldest first'],
  ['name_asc', 'Name A–Z'],
  ['name_desc', 'Name Z–A'],
  ['price_asc', 'Price, low to high'],
  ['price_desc', 'Price, high to low'],
  ['custom_asc', 'Custom order'],
  ['custom_desc', 'Custom order, reversed'],
] as const;

function productQuery(params: URLSearchParams): ProductListQuery {
  const query: ProductListQuery = {};
  const search = params.get('search');
  if (search) query.search = search;
  const order = params.get('order');
  if (order) query.order = order;
  const category = params.get('category');
  if (category) query.category = Number(category);
  if (params.get('fetch_hidden') === 'true') query.fetch_hidden = true;
  const page = params.get('page');
  if (page) query.page = Number(page);
  const perpage = params.get('perpage');
  if (perpage) query.perpage = Number(perpage);
  return query;
}

/** The categories as indented options: every level, in the tree's order. */
function flatten(tree: Category[], depth = 0): { id: number; label: string }[] {
  return tree.flatMap((c) => [
    { id: c.id, label: `${'  '.repeat(depth)}${c.name}` },
    ...flatten(c.subcategories, depth + 1),
  ]);
}

export function Products(): JSX.Element {
  const params = place.value.query;
  const key = params.toString();
  const list = useLoad(() => api().products.list(productQuery(params)), [key]);
  const categories = useLoad(() => api().categories.list(), []);
  const hiddenAllowed = can('products:read_hidden');
  const [bulk, setBulk] = useState(false);
  const [bulkNote, setBulkNote] = useState('');
  // Rows saved in place since the page was loaded: the bulk editor starts from them, not the list.
  const [edited, setEdited] = useState<Map<number, Product>>(new Map());
  const current = (list.data?.data ?? []).map((p) => {
    const mine = edited.get(p.id);
    return mine && mine.updated_at >= p.updated_at ? mine : p;
  });
  // The export takes the list's filters and order without its paging: every matching product.
  const { page: _page, perpage: _perpage, ...filters } = productQuery(params);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => field(form, name).trim() || undefined;
    navigate(
      href('/products', {
        search: text('search'),
        order: text('order') === 'date_desc' ? undefined : text('order'),
        category: text('category'),
        fetch_hidden: form.get('fetch_hidden') ? 'true' : undefined,
        perpage: text('perpage'),
      }),
    );
  };

  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Products
      </h1>
      <form class="filters" onSubmit={submit} aria-label="Find products" key={key}>
        <label class="wide">
          Search
          <input
            name="search"
            type="search"
            defaultValue={params.get('search') ?? ''}
            placeholder="name, description or SKU"
          />
        </label>
        <label>
          Sort
          <select name="order">
            {ORDERS.map(([value, label]) => (
              <option key={value} value={value} selected={value === (params.get('order') ?? 'date_desc')}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select name="category">
            <option value="">every category</option>
            {flatten(categories.data ?? []).map((c) => (
              <option key={c.id} value={c.id} selected={String(c.id) === params.get('category')}>
                {c.label}
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
      </form>
      <SavedViews screen="/products" />
      <Problem error={list.error ?? categories.error} />
      {list.data && (
        <div class="summary">
          <p aria-live="polite">
            <strong>{list.data.meta.total.toLocaleString()}</strong> products match
          </p>
          <Action scope="products:write" aria-pressed={bulk} onClick={() => (setBulk(!bulk), setBulkNote(''))}>
            {bulk ? 'Close the bulk editor' : 'Bulk edit this page'}
          </Action>
          <ExportButton
            label="Export CSV"
            list="products"
            scope={filters.fetch_hidden ? 'products:read_hidden' : undefined}
            link={() => api().exports.productsLink(filters)}
          />
        </div>
      )}
      {/* Outside the grid: it stays when the saved rows move off the page (a price sort). */}
      {bulkNote && (
        <p role="status" class="saved">
          {bulkNote}
        </p>
      )}
      {bulk && list.data && (
        // Built again from the current page: after an inline edit or a save it shows the new values.
        <BulkEditor
          key={current.map((p) => `${p.id}@${p.updated_at}@${p.price}@${p.name}`).join()}
          products={current}
          onSaved={(note) => {
            setBulkNote(note);
            list.reload();
          }}
        />
      )}
      <div hidden={bulk} class="table-wrap" aria-busy={list.loading ? 'true' : 'false'}>
        <ListTable
          caption="Products"
          quietCaption
          class="products"
          empty={list.data?.data.length === 0 && 'No product matches.'}
          columns={['Name', { label: 'Price', num: true }, 'Inventory', 'Stock', { label: 'Actions', hidden: true }]}
        >
          {list.data?.data.map((p) => (
            <ProductRow
              key={`${p.id}-${p.updated_at}`}
              product={p}
              onSaved={(next) => setEdited(new Map(edited).set(next.id, next))}
            />
          ))}
        </ListTable>
      </div>
      {list.data && <Pager meta={list.data.meta} label="Products" />}
    </>
  );
}

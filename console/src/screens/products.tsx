import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Action } from '../parts/action.js';
import { ExportButton } from '../parts/export-button.js';
import type { Product, ProductListQuery } from 'storefront-client';
import { ListTable } from '../parts/list-table.js';
import { Pager } from '../parts/pager.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { FACETS, productQuery, shopperFiltered } from '../product-query.js';
import { place } from '../router.js';
import { api, can } from '../session.js';
import { SavedViews } from '../parts/saved-views.js';
import { BulkEditor } from './bulk-editor.js';
import { ProductFilters } from './product-filters.js';
import { ProductRow } from './product-row.js';

// Products: the search box and the shopper filters with their facet counts (product-filters.tsx),
// every sort order, hidden ones (products:read_hidden), pages from the API; each row edits in
// place (product-row.tsx), or the whole page at once in the bulk editor (bulk-editor.tsx, saved
// as one batch update). The facets come in a request of their own, so that the page of products
// never waits for the counts (exact counts cost more than a page on a large catalog), and only
// once wanted.

export function Products(): JSX.Element {
  const params = place.value.query;
  const key = params.toString();
  const list = useLoad(() => api().products.list(productQuery(params)), [key]);
  const { facets, wanted, narrow } = useFacets(params);
  const categories = useLoad(() => api().categories.list(), []);
  // Prices are typed and shown in the project's currency.
  const project = useLoad(() => api().project(), []);
  const currency = project.data?.currency ?? list.data?.data[0]?.currency ?? 'USD';
  const hiddenAllowed = can('products:read_hidden');
  const [bulk, setBulk] = useState(false);
  const [bulkNote, setBulkNote] = useState('');
  // Rows saved in place since the page was loaded: the bulk editor starts from them, not the list.
  const [edited, setEdited] = useState<Map<number, Product>>(new Map());
  const current = (list.data?.data ?? []).map((p) => {
    const mine = edited.get(p.id);
    return mine && mine.updated_at >= p.updated_at ? mine : p;
  });
  // The export takes the list's filters and order, the shopper search's too, without its
  // paging: every matching product (CONTRACT 14).
  const { page: _page, perpage: _perpage, ...filters } = productQuery(params);

  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Products
      </h1>
      <ProductFilters
        params={params}
        categories={categories.data}
        facets={facets.data?.meta.facets}
        open={wanted}
        onOpen={narrow}
        currency={currency}
        hiddenAllowed={hiddenAllowed}
      />
      <SavedViews screen="/products" />
      <Problem error={list.error ?? facets.error ?? categories.error ?? project.error} />
      {list.data && (
        <ProductsSummary
          total={list.data.meta.total}
          bulk={bulk}
          onBulk={() => (setBulk(!bulk), setBulkNote(''))}
          filters={filters}
        />
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
            facets.reload();
          }}
        />
      )}
      <div hidden={bulk} class="table-wrap" aria-busy={list.loading ? 'true' : 'false'}>
        <ProductsTable
          products={list.data?.data}
          onSaved={(next) => {
            setEdited(new Map(edited).set(next.id, next));
            facets.reload();
          }}
        />
      </div>
      {list.data && <Pager meta={list.data.meta} label="Products" />}
    </>
  );
}

/**
 * The facet counts, asked for once wanted: with a search or a shopper filter, or when the
 * operator opens "Narrow down" (counting a large catalog's every product takes seconds).
 * Paging and sorting do not change them: asked again only when the matches change.
 */
function useFacets(params: URLSearchParams) {
  const { page: _page, perpage: _perpage, order: _order, ...matching } = productQuery(params);
  const [narrowing, setNarrowing] = useState(false);
  const wanted = narrowing || shopperFiltered(params);
  const facets = useLoad(
    () => (wanted ? api().products.list({ ...matching, perpage: 1, facets: FACETS }) : Promise.resolve(undefined)),
    [JSON.stringify(matching), wanted],
  );
  return { facets, wanted, narrow: () => setNarrowing(true) };
}

/** How many products match, the bulk editor's switch and the export of every match. */
function ProductsSummary({
  total,
  bulk,
  onBulk,
  filters,
}: {
  total: number;
  bulk: boolean;
  onBulk: () => void;
  filters: Omit<ProductListQuery, 'page' | 'perpage'>;
}): JSX.Element {
  return (
    <div class="summary">
      <p aria-live="polite">
        <strong>{total.toLocaleString()}</strong> products match
      </p>
      <Action scope="products:write" aria-pressed={bulk} onClick={onBulk}>
        {bulk ? 'Close the bulk editor' : 'Bulk edit this page'}
      </Action>
      <ExportButton
        label="Export CSV"
        list="products"
        scope={filters.fetch_hidden ? 'products:read_hidden' : undefined}
        link={() => api().exports.productsLink(filters)}
      />
    </div>
  );
}

/** The page's products, each edited in place. */
function ProductsTable({
  products,
  onSaved,
}: {
  products: Product[] | undefined;
  onSaved: (product: Product) => void;
}): JSX.Element {
  return (
    <ListTable
      caption="Products"
      quietCaption
      class="products"
      empty={products?.length === 0 && 'No product matches.'}
      columns={['Name', { label: 'Price', num: true }, 'Inventory', 'Stock', { label: 'Actions', hidden: true }]}
    >
      {products?.map((p) => (
        <ProductRow key={`${p.id}-${p.updated_at}`} product={p} onSaved={onSaved} />
      ))}
    </ListTable>
  );
}

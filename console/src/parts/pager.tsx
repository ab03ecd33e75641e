import type { JSX } from 'preact';
import { setQuery } from '../router.js';

// Paging by the API (page and perpage in the address): the browser never holds a whole list.

interface Meta {
  page: number;
  perpage: number;
  total: number;
  pages: number;
}

export function Pager({ meta, label }: { meta: Meta; label: string }): JSX.Element {
  const first = meta.total === 0 ? 0 : (meta.page - 1) * meta.perpage + 1;
  const last = Math.min(meta.page * meta.perpage, meta.total);
  const go = (page: number) => setQuery({ page: page === 1 ? undefined : String(page) });
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <span aria-live="polite">
        {first}–{last} of {meta.total.toLocaleString()}
      </span>
      <button type="button" onClick={() => go(meta.page - 1)} disabled={meta.page <= 1}>
        Previous page
      </button>
      <span>
        page {meta.page} of {Math.max(meta.pages, 1)}
      </span>
      <button type="button" onClick={() => go(meta.page + 1)} disabled={meta.page >= meta.pages}>
        Next page
      </button>
    </nav>
  );
}

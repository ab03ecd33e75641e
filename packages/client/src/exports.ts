import type { Api } from './api.js';
import { queryString } from './query.js';
import type { DownloadLink, OrdersExportQuery, ProductsExportQuery } from './records.js';

// Exports (docs/API.md, "Exports"): each answers the file as a web ReadableStream of bytes,
// read as the caller goes (a million rows never sit in memory). In Node, write it to a file
// with `Readable.fromWeb(stream).pipe(fs.createWriteStream(path))`, or `for await` its chunks;
// `new Response(stream).text()` reads a small one whole. In a browser, ask for a link instead
// (`ordersLink` …) and follow its `path`: the browser saves the file itself, streamed to disk.

export function exportHelpers(api: Api) {
  return {
    /**
     * Every product the list with these filters and `order` holds, as CSV (`fetch_hidden` needs
     * products:read_hidden), after a UTF-8 byte order mark unless `bom: false`; `delimiter: 'semicolon'` for `;`.
     */
    products: (query: ProductsExportQuery = {}, options: { signal?: AbortSignal } = {}) =>
      api(`/exports/products.csv${queryString(query)}`, { stream: true, signal: options.signal }),
    /** Every order the list with these filters holds, newest first, as CSV (needs orders:read). */
    orders: (query: OrdersExportQuery = {}, options: { signal?: AbortSignal } = {}) =>
      api(`/exports/orders.csv${queryString(query)}`, { stream: true, signal: options.signal }),
    /** A one-time link of the products export: its `path` downloads it once, within a minute, without a key. */
    productsLink: (query: ProductsExportQuery = {}) =>
      api<DownloadLink>(`/exports/products.csv/link${queryString(query)}`, { method: 'POST' }),
    /** A one-time link of the orders export (needs orders:read), as productsLink. */
    ordersLink: (query: OrdersExportQuery = {}) =>
      api<DownloadLink>(`/exports/orders.csv/link${queryString(query)}`, { method: 'POST' }),
    /** A one-time link of the project export (needs every read scope), as productsLink. */
    projectLink: () => api<DownloadLink>('/exports/project.ndjson/link', { method: 'POST' }),
    /** The whole project in the import format, one record a line (NDJSON; needs every read scope). */
    project: (options: { signal?: AbortSignal } = {}) =>
      api('/exports/project.ndjson', { stream: true, signal: options.signal }),
  };
}

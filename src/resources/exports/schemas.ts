import { type TObject, type TProperties, Type } from 'typebox';
import { EmptyQuery } from '../../http/schemas.js';
import type { Scope } from '../../keys/scopes.js';
import { OrderListQuery } from '../orders/schemas.js';
import { ProductListQuery } from '../products/schemas.js';

// An export takes its list's filters and `order`, without paging: it answers every match.

const {
  page: _productPage,
  perpage: _productPerpage,
  // Counts beside a page are the list's alone: an export answers every match.
  facets: _facets,
  price_ranges: _priceRanges,
  ...productFilters
} = ProductListQuery.properties;
const { page: _orderPage, perpage: _orderPerpage, ...orderFilters } = OrderListQuery.properties;

/** How a CSV is written: for a spreadsheet by default (a byte order mark, commas). */
const csvFormat = {
  bom: Type.Optional(
    Type.Boolean({
      description:
        'false: no UTF-8 byte order mark before the header (by default there is one: a spreadsheet needs it to read the file as UTF-8)',
      examples: [true],
    }),
  ),
  delimiter: Type.Optional(
    Type.Enum(['comma', 'semicolon'], {
      description: "between cells: `comma` (the default) or `semicolon` (a European spreadsheet's)",
      examples: ['comma'],
    }),
  ),
};

export const ProductsExportQuery = Type.Object({ ...productFilters, ...csvFormat }, { additionalProperties: false });
export const OrdersExportQuery = Type.Object({ ...orderFilters, ...csvFormat }, { additionalProperties: false });

/** The project export holds everything: it needs every read scope. */
export const READ_SCOPES: Scope[] = ['users:read', 'orders:read', 'products:read_hidden'];

const PRODUCTS_CSV_EXAMPLE =
  'id,handle,name,description,sku,price,currency,inventory_type,in_stock,stock_quantity,show_in_store,custom_sort,category_ids,images,created_at,updated_at\r\n' +
  '12,linen-shirt,Linen shirt,Light and cool.,LS-01,4900,USD,advanced,true,7,true,0,3;5,https://example.com/ls.jpg|Linen shirt,1763700000,1763710000\r\n';

const ORDERS_CSV_EXAMPLE =
  'id,customer_email,customer_name,items,total,currency,payment_status,fulfillment_status,is_canceled,is_archived,delivery_information,created_at,updated_at\r\n' +
  '1001,ada@example.com,Ada,2 × Linen shirt; 1 × Wool scarf,12300,USD,paid,unfulfilled,false,false,,2025-11-21T04:40:00Z,2025-11-21T04:40:00Z\r\n';

const PROJECT_NDJSON_EXAMPLE =
  '{"type":"project","id":"demo","name":"Demo shop","currency":"USD"}\n' +
  '{"type":"category","id":1,"handle":"clothing","name":"Clothing","parent_id":null}\n';

/**
 * An export, declared once: its file, its query, the scope its key needs (null: any key of
 * the project; products.csv also needs products:read_hidden with fetch_hidden=true), its
 * operation's words in the OpenAPI document, and its answer (the file's media type, what it
 * holds, the start of one). Its GET (routes.ts) and its download link (link-routes.ts) are
 * made from it.
 */
export interface ExportFile<T extends TProperties = TProperties> {
  file: string;
  query: TObject<T>;
  scope: Scope | readonly Scope[] | null;
  operationId: string;
  summary: string;
  description: string;
  answer: { mediaType: string; description: string; example: string };
}

/**
 * A list's CSV export, `<list>.csv`: every match of the list's query, one row each. Its
 * operation's id and summary and its answer's words follow from the list's name.
 */
function listCsv<T extends TProperties>(
  list: string,
  query: TObject<T>,
  scope: ExportFile['scope'],
  description: string,
  example: string,
): ExportFile<T> {
  return {
    file: `${list}.csv`,
    query,
    scope,
    operationId: `export${list[0].toUpperCase()}${list.slice(1)}`,
    summary: `Export ${list} as CSV`,
    description,
    answer: { mediaType: 'text/csv', description: `the ${list}, one row each`, example },
  };
}

export const PRODUCTS_CSV = listCsv(
  'products',
  ProductsExportQuery,
  null,
  "Every product the list with the same filters and `order` holds, no paging, as CSV (RFC 4180, UTF-8 after a byte order mark unless `bom=false`, `,` or with `delimiter=semicolon` `;` between cells, a header row; the columns in docs/API.md). Any key of the project; `fetch_hidden=true` needs products:read_hidden. A cell beginning with =, +, -, @, tab or carriage return is written with a ' in front (CSV injection).",
  PRODUCTS_CSV_EXAMPLE,
);

export const ORDERS_CSV = listCsv(
  'orders',
  OrdersExportQuery,
  'orders:read',
  'Every order the list with the same filters holds, newest first, no paging, as CSV (UTF-8 after a byte order mark unless `bom=false`; `delimiter=semicolon` for `;`): one row per order, `items` as `2 × Linen shirt; 1 × Wool scarf`, times in ISO 8601 UTC.',
  ORDERS_CSV_EXAMPLE,
);

export const PROJECT_NDJSON = {
  file: 'project.ndjson',
  query: EmptyQuery,
  scope: READ_SCOPES,
  operationId: 'exportProject',
  summary: 'Export the whole project as NDJSON',
  description:
    'The project and every record of it in the import format, one record a line (the same bytes as `storefront export --format ndjson`), hidden products and plans of every status included: importable again as it is. Needs every read scope (users:read, orders:read, products:read_hidden).',
  answer: {
    mediaType: 'application/x-ndjson',
    description: 'the project, then its records, one a line',
    example: PROJECT_NDJSON_EXAMPLE,
  },
} satisfies ExportFile;

export const EXPORT_FILES: readonly ExportFile[] = [PRODUCTS_CSV, ORDERS_CSV, PROJECT_NDJSON];

/** The export's query on its GET: a one-time `download_token` may stand for the key. */
export function withDownloadToken<T extends TProperties>(query: TObject<T>) {
  const download_token = Type.Optional(
    Type.String({
      description:
        'A one-time token of a download link (`POST …/exports/<file>/link`), sent instead of the Authorization header: good once, for a minute, for this file and exactly this query.',
      examples: ['sfd_3q2J8xVx0sYb6o1cS0mWcA4pJxkq1kXH'],
    }),
  );
  return Type.Object({ ...query.properties, download_token }, { additionalProperties: false });
}

export const DownloadLink = Type.Object(
  {
    path: Type.String({
      description: 'the export’s address on this server, with the one-time token: follow it without a key',
      examples: [
        '/v2/projects/demo/exports/orders.csv?payment_status=paid&download_token=sfd_3q2J8xVx0sYb6o1cS0mWcA4pJxkq1kXH',
      ],
    }),
    expires_at: Type.Integer({
      description: 'unix seconds after which the link no longer works',
      examples: [1764300060],
    }),
  },
  { additionalProperties: false },
);

/** A 200 of one media type whose body is a file (streamed), as the OpenAPI document shows it. */
export function fileAnswer({ mediaType, description, example }: ExportFile['answer']) {
  return {
    description,
    content: { [mediaType]: { schema: Type.String({ description, examples: [example] }) } },
  };
}

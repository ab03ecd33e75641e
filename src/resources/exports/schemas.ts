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

/**
 * The exports, each with its query and the scope its key needs (null: any key of the
 * project; products.csv also needs products:read_hidden with fetch_hidden=true). Their GET
 * routes and their download links (link-routes.ts) are made from this one list.
 */
export const EXPORT_FILES: { file: string; query: TObject; scope: Scope | readonly Scope[] | null }[] = [
  { file: 'products.csv', query: ProductsExportQuery, scope: null },
  { file: 'orders.csv', query: OrdersExportQuery, scope: 'orders:read' },
  { file: 'project.ndjson', query: EmptyQuery, scope: READ_SCOPES },
];

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
export function fileAnswer(mediaType: string, description: string, example: string) {
  return {
    description,
    content: { [mediaType]: { schema: Type.String({ description, examples: [example] }) } },
  };
}

export const PRODUCTS_CSV_EXAMPLE =
  'id,handle,name,description,sku,price,currency,inventory_type,in_stock,stock_quantity,show_in_store,custom_sort,category_ids,images,created_at,updated_at\r\n' +
  '12,linen-shirt,Linen shirt,Light and cool.,LS-01,4900,USD,advanced,true,7,true,0,3;5,https://example.com/ls.jpg|Linen shirt,1763700000,1763710000\r\n';

export const ORDERS_CSV_EXAMPLE =
  'id,customer_email,customer_name,items,total,currency,payment_status,fulfillment_status,is_canceled,is_archived,delivery_information,created_at,updated_at\r\n' +
  '1001,ada@example.com,Ada,2 × Linen shirt; 1 × Wool scarf,12300,USD,paid,unfulfilled,false,false,,2025-11-21T04:40:00Z,2025-11-21T04:40:00Z\r\n';

export const PROJECT_NDJSON_EXAMPLE =
  '{"type":"project","id":"demo","name":"Demo shop","currency":"USD"}\n' +
  '{"type":"category","id":1,"handle":"clothing","name":"Clothing","parent_id":null}\n';

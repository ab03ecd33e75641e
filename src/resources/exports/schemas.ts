import { Type } from 'typebox';
import { OrderListQuery } from '../orders/schemas.js';
import { ProductListQuery } from '../products/schemas.js';

// An export takes its list's filters and `order`, without paging: it answers every match.

const { page: _productPage, perpage: _productPerpage, ...productFilters } = ProductListQuery.properties;
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

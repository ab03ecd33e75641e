import { type Static, Type } from 'typebox';
import { Id, IdOrHandle, MAX_ID, Page, ProjectId, PagedList, PerPage, Timestamp } from '../../http/schemas.js';
import { AMOUNT_DESCRIPTION, MAX_AMOUNT } from '../../http/amounts.js';
import { HandleRef } from '../record-fields.js';

export const ORDER_CLAUSES = [
  'name_asc',
  'name_desc',
  'price_asc',
  'price_desc',
  'date_asc',
  'date_desc',
  'custom_asc',
  'custom_desc',
] as const;
export type OrderClause = (typeof ORDER_CLAUSES)[number];

export const InventoryType = Type.Enum(['simple', 'advanced']);

export const Image = Type.Object({ url: Type.String(), alt: Type.String() });

export const Product = Type.Object(
  {
    id: Id,
    handle: Type.String(),
    name: Type.String(),
    description: Type.String(),
    sku: Type.Union([Type.String(), Type.Null()]),
    price: Type.Integer({ description: "in the currency's smallest unit" }),
    currency: Type.String({ description: "the project's ISO 4217 currency" }),
    inventory_type: InventoryType,
    in_stock: Type.Boolean({ description: 'simple: the stored flag; advanced: stock_quantity > 0' }),
    stock_quantity: Type.Union([Type.Integer(), Type.Null()], {
      description: 'advanced: the stored count; simple: null',
    }),
    show_in_store: Type.Boolean({ description: 'false: the product is hidden' }),
    custom_sort: Type.Integer(),
    category_ids: Type.Array(Type.Integer()),
    images: Type.Array(Image),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;

export const ProductList = PagedList(Type.Ref('Product'));

export const FetchHidden = Type.Boolean({
  default: false,
  description: 'true: hidden products too; needs an API key',
  examples: [false],
});

/** `ids=`: 100 ids of up to 16 digits, with their commas. */
export const MAX_IDS_LENGTH = 100 * 16 + 99;

export const ProductListQuery = Type.Object(
  {
    page: Type.Optional(Page),
    perpage: Type.Optional(PerPage),
    category: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'category id: products directly in it',
        examples: [1],
      }),
    ),
    search: Type.Optional(
      Type.String({
        maxLength: 256,
        description: 'case-insensitive substring of name, description or SKU',
        examples: ['mug'],
      }),
    ),
    // A failed pattern's message reads "must be <description>" (describeRule), so each
    // description is the rule itself.
    ids: Type.Optional(
      Type.String({
        pattern: '^0*[1-9][0-9]*(,0*[1-9][0-9]*)*$',
        // 100 ids of 16 digits and their commas; repeats count once towards the 100.
        maxLength: MAX_IDS_LENGTH,
        description:
          'a comma-separated list of 1 to 100 positive integer ids (at most 9007199254740991; a repeat counts once)',
        examples: ['1,2,3'],
      }),
    ),
    order: Type.Optional(
      Type.String({
        pattern: `^(${ORDER_CLAUSES.join('|')})(,(${ORDER_CLAUSES.join('|')}))*$`,
        default: 'date_desc',
        description: `one or more comma-separated clauses of ${ORDER_CLAUSES.join(', ')}`,
        examples: ['price_asc,name_asc'],
      }),
    ),
    fetch_hidden: Type.Optional(FetchHidden),
  },
  { additionalProperties: false },
);
export type ProductListQuery = Static<typeof ProductListQuery>;

export const ProductGetQuery = Type.Object(
  { fetch_hidden: Type.Optional(FetchHidden) },
  { additionalProperties: false },
);

export const ProductUpdate = Type.Object(
  {
    // \S: not only white space (the same characters String.prototype.trim removes).
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '\\S',
        description: '1 to 128 characters, not only white space',
      }),
    ),
    price: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: AMOUNT_DESCRIPTION })),
    inventory_type: Type.Optional(InventoryType),
    in_stock: Type.Optional(Type.Boolean({ description: 'only for simple products' })),
    stock_quantity: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000, description: 'only for advanced products' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ price: 1999 }] },
);
export type ProductUpdate = Static<typeof ProductUpdate>;

export const ProductParams = Type.Object({ project_id: ProjectId, product: IdOrHandle('product', '1') });

/** The most products one batch update changes (CONTRACT 18). */
export const MAX_BATCH = 1000;

export const ProductBatchItem = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'the product to change: its id, or give handle instead',
      }),
    ),
    handle: Type.Optional(HandleRef('the product to change, when id is not given')),
    ...ProductUpdate.properties,
    if_match: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          "the product's ETag as last read (a GET's, of any encoding; or *): the batch is a 409 when the product has changed since",
        examples: ['"2jmj7l5rSw0yVb_vlWAYkK_YBwk"'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ProductBatchItem = Static<typeof ProductBatchItem>;

export const ProductBatch = Type.Object(
  {
    products: Type.Array(ProductBatchItem, {
      minItems: 1,
      maxItems: MAX_BATCH,
      description: `1 to ${MAX_BATCH} partial updates, each naming a different product`,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        products: [
          { id: 1, price: 4500 },
          { id: 3, stock_quantity: 14, if_match: '*' },
        ],
      },
    ],
  },
);
export type ProductBatch = Static<typeof ProductBatch>;

export const ProductBatchResult = Type.Object({
  data: Type.Array(Type.Ref('Product'), { description: 'the updated products, in the order of the request' }),
});

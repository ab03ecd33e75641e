import { type Static, Type } from 'typebox';
import { Id, IdOrHandle, ListMeta, MAX_ID, Page, ProjectId, PerPage, Timestamp } from '../../http/schemas.js';
import { AMOUNT_DESCRIPTION, MAX_AMOUNT } from '../../http/amounts.js';
import { HandleRef } from '../record-fields.js';
import { FACET_NAMES } from './search/facets.js';
import { MAX_RANGES } from './search/price-ranges.js';

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

const Count = Type.Integer({ minimum: 0 });
const Bound = Type.Union([Type.Integer(), Type.Null()]);

/** `meta.facets` (CONTRACT 17): each facet counted with every filter but its own. */
export const ProductFacets = Type.Object(
  {
    category: Type.Optional(Type.Array(Type.Object({ id: Id, count: Count }))),
    price: Type.Optional(
      Type.Object({
        min: Bound,
        max: Bound,
        ranges: Type.Array(Type.Object({ from: Bound, to: Bound, count: Count })),
      }),
    ),
    in_stock: Type.Optional(Type.Object({ true: Count, false: Count })),
    inventory_type: Type.Optional(Type.Object({ simple: Count, advanced: Count })),
  },
  {
    description: 'with facets= only',
    examples: [
      {
        category: [
          { id: 1, count: 12 },
          { id: 3, count: 9 },
        ],
        price: {
          min: 900,
          max: 12900,
          ranges: [
            { from: 0, to: 5000, count: 14 },
            { from: 5000, to: null, count: 3 },
          ],
        },
        in_stock: { true: 15, false: 2 },
      },
    ],
  },
);

export const ProductList = Type.Object({
  data: Type.Array(Type.Ref('Product')),
  meta: Type.Object({ ...ListMeta.properties, facets: Type.Optional(ProductFacets) }),
});

export const FetchHidden = Type.Boolean({
  default: false,
  description: 'true: hidden products too; needs an API key',
  examples: [false],
});

/** `ids=`: 100 ids of up to 16 digits, with their commas. */
export const MAX_IDS_LENGTH = 100 * 16 + 99;

// The parameters of CONTRACT 17 (docs/API.md, "Shopper search"); the export takes none of them.
const Amount = (description: string, example: number) =>
  Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description, examples: [example] });

const RANGE = '[0-9]{0,13}-[0-9]{0,13}';

const SearchQueryProperties = {
  q: Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        'words a shopper typed (at most 10): each must match a word of the name, description or SKU, ignoring case and diacritics, with typos by length (1-4 characters none, 5-8 one, 9+ two); the last word also as a prefix',
      examples: ['linen shrit'],
    }),
  ),
  price_min: Type.Optional(Amount('the lowest price, inclusive, in the smallest unit', 1000)),
  price_max: Type.Optional(Amount('the highest price, inclusive, in the smallest unit', 5000)),
  in_stock: Type.Optional(
    Type.Boolean({ description: 'only products shown in stock (true) or out of stock (false)', examples: [true] }),
  ),
  inventory_type: Type.Optional({
    ...InventoryType,
    description: 'only products of this inventory type',
    examples: ['simple'],
  }),
  categories: Type.Optional(
    Type.String({
      pattern: '^0*[1-9][0-9]*(,0*[1-9][0-9]*)*$',
      maxLength: MAX_IDS_LENGTH,
      description: 'a comma-separated list of 1 to 100 category ids: products in any of them or of their descendants',
      examples: ['1,4'],
    }),
  ),
  facets: Type.Optional(
    Type.String({
      pattern: `^(${FACET_NAMES.join('|')})(,(${FACET_NAMES.join('|')}))*$`,
      description: `a comma-separated list of ${FACET_NAMES.join(', ')}: their counts in meta.facets`,
      examples: ['category,price,in_stock'],
    }),
  ),
  price_ranges: Type.Optional(
    Type.String({
      pattern: `^${RANGE}(,${RANGE})*$`,
      maxLength: MAX_RANGES * 28,
      description:
        'comma-separated price ranges from-to, half-open [from, to), an end may be left out (e.g. 0-1000,1000-)',
      examples: ['0-1000,1000-5000,5000-'],
    }),
  ),
};

/** The names of CONTRACT 17's parameters. */
export const SEARCH_PARAMETERS = Object.keys(SearchQueryProperties) as (keyof typeof SearchQueryProperties)[];

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
        pattern: `^(relevance|${ORDER_CLAUSES.join('|')})(,(${ORDER_CLAUSES.join('|')}))*$`,
        default: 'date_desc',
        description: `one or more comma-separated clauses of ${ORDER_CLAUSES.join(', ')}; relevance (the default with q) only first and only with q`,
        examples: ['price_asc,name_asc'],
      }),
    ),
    fetch_hidden: Type.Optional(FetchHidden),
    ...SearchQueryProperties,
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

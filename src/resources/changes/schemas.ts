import { Type } from 'typebox';
import { CHANGE_TYPES } from '../../changes/entry.js';
import { encodeCursor } from '../../changes/cursor.js';
import { Id, Timestamp } from '../../http/schemas.js';
import { FetchHidden } from '../products/schemas.js';

// GET /v2/projects/<project_id>/changes/ (docs/API.md, "The change feed").

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 100;
/** The types a reader gets when it names none: the public ones. */
export const PUBLIC_TYPES = ['product', 'category', 'plan'] as const;

const CURSOR_PATTERN = '^[A-Za-z0-9_-]{1,120}$';

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        pattern: CURSOR_PATTERN,
        description:
          'a cursor: the `next` of an earlier answer; leave it out to start from the beginning. One this API did not make is 410 gone, like an expired one: start again without it',
        // seq 1: the first write of any project (its creation), so the example is valid on any project.
        examples: [encodeCursor(1)],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
        description: `most entries in this answer, default ${DEFAULT_LIMIT}`,
        examples: [DEFAULT_LIMIT],
      }),
    ),
    types: Type.Optional(
      Type.String({
        pattern: `^(${CHANGE_TYPES.join('|')})(,(${CHANGE_TYPES.join('|')}))*$`,
        description: `comma-separated from ${CHANGE_TYPES.join(', ')}; default ${PUBLIC_TYPES.join(',')}. user and order need a key with users:read / orders:read`,
        examples: [PUBLIC_TYPES.join(',')],
      }),
    ),
    fetch_hidden: Type.Optional(FetchHidden),
  },
  { additionalProperties: false },
);

/** The record schema each type's entries carry (a category flat, without subcategories). */
const RECORD_OF = { product: 'Product', category: 'FeedCategory', plan: 'Plan', user: 'User', order: 'Order' } as const;

/** `ProductChange`, `CategoryChange` …: the component that the discriminator maps a type to. */
export const changeSchemaName = (type: keyof typeof RECORD_OF) => `${type[0].toUpperCase()}${type.slice(1)}Change`;

/**
 * One entry per type, each a shared schema, so that the document's `oneOf` can carry an
 * OpenAPI `discriminator` on `type` (whose mapping must name components): a generated client
 * then narrows `record` by `type`.
 */
export const CHANGE_ENTRIES = CHANGE_TYPES.map((type) =>
  Type.Object(
    {
      type: Type.Literal(type),
      id: Id,
      action: Type.Enum(['upsert', 'delete'], {
        description: 'upsert: the record as it is now; delete: the record is gone for this reader',
      }),
      record: Type.Union([Type.Ref(RECORD_OF[type]), Type.Null()], {
        description: `the ${type} as the lists show it${type === 'category' ? ' (without subcategories)' : ''}; null for a delete`,
      }),
      changed_at: Timestamp,
    },
    { $id: changeSchemaName(type), description: `A change of a ${type}.` },
  ),
);

// Unsafe: a union of $refs has no static type of its own (the handler's FeedPage has).
export const ChangeEntry = Type.Unsafe<unknown>({
  oneOf: CHANGE_TYPES.map((type) => ({ $ref: changeSchemaName(type) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(CHANGE_TYPES.map((t) => [t, `#/components/schemas/${changeSchemaName(t)}`])),
  },
});

export const ChangeList = Type.Object(
  {
    data: Type.Array(ChangeEntry, { description: 'in commit order; each record at most once' }),
    next: Type.String({
      description:
        'the cursor to ask with next: after this page, or (has_more false) after everything committed when this answer was made',
    }),
    has_more: Type.Boolean({ description: 'true: ask again with next at once; false: poll with next later' }),
  },
  {
    examples: [
      {
        data: [
          {
            type: 'product',
            id: 12,
            action: 'upsert',
            record: {
              id: 12,
              handle: 'linen-shirt',
              name: 'Linen shirt',
              description: 'Light and cool.',
              sku: 'LS-01',
              price: 4900,
              currency: 'USD',
              inventory_type: 'advanced',
              in_stock: true,
              stock_quantity: 7,
              show_in_store: true,
              custom_sort: 0,
              category_ids: [3, 5],
              images: [],
              created_at: 1763700000,
              updated_at: 1763710000,
            },
            changed_at: 1763710000,
          },
          { type: 'product', id: 13, action: 'delete', record: null, changed_at: 1763710005 },
        ],
        next: encodeCursor(42),
        has_more: false,
      },
    ],
  },
);

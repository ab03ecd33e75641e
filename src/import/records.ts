import { type Static, Type } from 'typebox';
import { Id } from '../http/schemas.js';
import { INTERVALS, PLAN_STATUSES } from '../resources/plans/schemas.js';

// The records of an import file (CONTRACT 9): the API's record shapes, where every field
// with a default may be left out and `id` may be left out to take the next free id.

const Handle = Type.String({
  maxLength: 128,
  pattern: '^(?![0-9]+$)[a-z0-9]+(-[a-z0-9]+)*$',
  description: 'a handle: lower-case letters and digits in words joined by single hyphens, not all digits',
});
const Bool = Type.Boolean();
// Times from year 1 to 9999: every backend stores them as the same 64-bit integer (an
// unbounded one would be a REAL in SQLite and an error in PostgreSQL's bigint).
const Timestamp = Type.Integer({ minimum: -62_135_596_800, maximum: 253_402_300_799, description: 'unix seconds' });
const Count = (max: number) => Type.Integer({ minimum: 0, maximum: max });
const Money = Count(1_000_000_000_000);
const Text = (maxLength: number) => Type.String({ maxLength });
const strict = { additionalProperties: false } as const;

export const ProjectRecord = Type.Object(
  {
    id: Type.String({
      pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
      description: 'a project id: 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit',
    }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'a three-letter ISO 4217 code such as USD' }),
  },
  strict,
);

export const CategoryRecord = Type.Object(
  {
    id: Type.Optional(Id),
    handle: Handle,
    name: Type.String({ minLength: 1, maxLength: 128 }),
    parent_id: Type.Optional(Type.Union([Id, Type.Null()])),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);

export const ProductRecord = Type.Object(
  {
    id: Type.Optional(Id),
    handle: Handle,
    name: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Text(100_000)),
    sku: Type.Optional(Type.Union([Text(128), Type.Null()])),
    price: Money,
    inventory_type: Type.Optional(Type.Enum(['simple', 'advanced'])),
    in_stock: Type.Optional(Bool),
    stock_quantity: Type.Optional(Count(100_000)),
    show_in_store: Type.Optional(Bool),
    custom_sort: Type.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 })),
    category_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
    images: Type.Optional(Type.Array(Type.Object({ url: Text(2048), alt: Text(512) }, strict), { maxItems: 100 })),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);

export const PriceRecord = Type.Object(
  {
    id: Type.Optional(Id),
    amount: Money,
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'a three-letter ISO 4217 code such as USD' }),
    ),
    interval: Type.Enum(INTERVALS),
    interval_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    trial_days: Type.Optional(Count(3650)),
  },
  strict,
);

export const PlanRecord = Type.Object(
  {
    id: Type.Optional(Id),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Text(10_000)),
    status: Type.Optional(Type.Enum(PLAN_STATUSES)),
    prices: Type.Optional(Type.Array(PriceRecord, { maxItems: 100 })),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled'] as const;

export const UserRecord = Type.Object(
  {
    id: Type.Optional(Id),
    email: Type.String({ format: 'email', maxLength: 320 }),
    name: Type.Optional(Text(200)),
    email_verified: Type.Optional(Bool),
    created_at: Type.Optional(Timestamp),
    last_login_at: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    subscriptions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            plan_id: Id,
            price_id: Id,
            status: Type.Enum(SUBSCRIPTION_STATUSES),
            started_at: Type.Optional(Timestamp),
            canceled_at: Type.Optional(Type.Union([Timestamp, Type.Null()])),
          },
          strict,
        ),
        { maxItems: 100 },
      ),
    ),
  },
  strict,
);

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export const FULFILLMENT_STATUSES = ['unfulfilled', 'shipped', 'ready_for_pickup', 'delivered', 'returned'] as const;

export const OrderRecord = Type.Object(
  {
    id: Type.Optional(Id),
    customer_email: Type.String({ format: 'email', maxLength: 320 }),
    customer_name: Type.Optional(Text(200)),
    items: Type.Optional(
      Type.Array(
        Type.Object(
          {
            product_id: Type.Union([Id, Type.Null()]),
            name: Type.String({ minLength: 1, maxLength: 200 }),
            quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
            price: Money,
          },
          strict,
        ),
        { maxItems: 1000 },
      ),
    ),
    total: Type.Optional(Money),
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'a three-letter ISO 4217 code such as USD' }),
    ),
    payment_status: Type.Optional(Type.Enum(PAYMENT_STATUSES)),
    fulfillment_status: Type.Optional(Type.Enum(FULFILLMENT_STATUSES)),
    is_canceled: Type.Optional(Bool),
    is_archived: Type.Optional(Bool),
    delivery_information: Type.Optional(Text(10_000)),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);

export type ProjectRecord = Static<typeof ProjectRecord>;
export type CategoryRecord = Static<typeof CategoryRecord>;
export type ProductRecord = Static<typeof ProductRecord>;
export type PlanRecord = Static<typeof PlanRecord>;
export type UserRecord = Static<typeof UserRecord>;
export type OrderRecord = Static<typeof OrderRecord>;

/** Record kinds in the order of an import document; the NDJSON `type` is the singular. */
export const KINDS = {
  categories: 'category',
  products: 'product',
  plans: 'plan',
  users: 'user',
  orders: 'order',
} as const;
export type Kind = keyof typeof KINDS;

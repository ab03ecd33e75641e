import { type Static, Type } from 'typebox';
import { Id, MAX_ID, Page, PathId, ProjectId, PagedList, PerPage, Timestamp } from '../../http/schemas.js';
import { FULFILLMENT_STATUSES, PAYMENT_STATUSES } from './record.js';

export const PaymentStatus = Type.Enum(PAYMENT_STATUSES);
export const FulfillmentStatus = Type.Enum(FULFILLMENT_STATUSES);

export const OrderItem = Type.Object({
  product_id: Type.Union([Id, Type.Null()], { description: 'null when the product was removed' }),
  name: Type.String(),
  quantity: Type.Integer(),
  price: Type.Integer({ description: "unit price in the currency's smallest unit" }),
});

export const Order = Type.Object(
  {
    id: Id,
    customer_email: Type.String(),
    customer_name: Type.String(),
    items: Type.Array(OrderItem, { description: 'in the order they were stored' }),
    total: Type.Integer({ description: "in the currency's smallest unit" }),
    currency: Type.String(),
    payment_status: PaymentStatus,
    fulfillment_status: FulfillmentStatus,
    is_canceled: Type.Boolean(),
    is_archived: Type.Boolean(),
    delivery_information: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Order' },
);
export type Order = Static<typeof Order>;

export const OrderList = PagedList(Type.Ref('Order'));

const Flag = Type.Boolean({ description: 'true or false', examples: [false] });
const UnixSeconds = (description: string, example: number) =>
  Type.Integer({ minimum: 0, maximum: MAX_ID, description, examples: [example] });

export const OrderListQuery = Type.Object(
  {
    page: Type.Optional(Page),
    perpage: Type.Optional(PerPage),
    payment_status: Type.Optional(
      Type.Enum(PAYMENT_STATUSES, { description: 'only orders with this payment status', examples: ['paid'] }),
    ),
    fulfillment_status: Type.Optional(
      Type.Enum(FULFILLMENT_STATUSES, {
        description: 'only orders with this fulfillment status',
        examples: ['shipped'],
      }),
    ),
    is_canceled: Type.Optional(Flag),
    is_archived: Type.Optional(Flag),
    customer_email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 320,
        description: 'matched case-insensitively',
        examples: ['ada@example.com'],
      }),
    ),
    created_after: Type.Optional(UnixSeconds('unix seconds; only orders created after it (exclusive)', 1700000000)),
    created_before: Type.Optional(UnixSeconds('unix seconds; only orders created before it (exclusive)', 4102444800)),
  },
  { additionalProperties: false },
);
export type OrderListQuery = Static<typeof OrderListQuery>;

// The flags are the strings "true"/"false" (docs/API.md, POST /orders/<order_id>); JSON
// booleans are accepted too.
const FlagInput = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], {
  description: 'true or false, as a JSON boolean or a string',
});

export const OrderUpdate = Type.Object(
  {
    payment_status: Type.Optional(PaymentStatus),
    fulfillment_status: Type.Optional(FulfillmentStatus),
    is_canceled: Type.Optional(FlagInput),
    is_archived: Type.Optional(FlagInput),
    delivery_information: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  // The example is what Swagger UI sends on Execute: it must never cancel or archive.
  { additionalProperties: false, minProperties: 1, examples: [{ fulfillment_status: 'shipped' }] },
);
export type OrderUpdate = Static<typeof OrderUpdate>;

export const OrderParams = Type.Object({ project_id: ProjectId, order_id: PathId('order', 1001) });

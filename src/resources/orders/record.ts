import { type Static, Type } from 'typebox';
import { Id } from '../../http/schemas.js';
import { Bool, Currency, Money, Text, Timestamp, strict } from '../record-fields.js';

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
    currency: Type.Optional(Currency()),
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
export type OrderRecord = Static<typeof OrderRecord>;

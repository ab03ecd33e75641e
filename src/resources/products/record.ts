import { type Static, Type } from 'typebox';
import { Id } from '../../http/schemas.js';
import { Bool, Count, Handle, Money, Text, Timestamp, strict } from '../record-fields.js';

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
export type ProductRecord = Static<typeof ProductRecord>;

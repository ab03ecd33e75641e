import { type Static, Type } from 'typebox';
import { Id } from '../../http/schemas.js';
import { Count, Currency, Money, Text, Timestamp, strict } from '../record-fields.js';

export const PLAN_STATUSES = ['active', 'deactivated', 'archived', 'deleted'] as const;
export const INTERVALS = ['day', 'week', 'month', 'year', 'one_time'] as const;

export const PriceRecord = Type.Object(
  {
    id: Type.Optional(Id),
    amount: Money,
    currency: Type.Optional(Currency()),
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
export type PlanRecord = Static<typeof PlanRecord>;

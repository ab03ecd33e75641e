import { type Static, Type } from 'typebox';
import { Id } from '../../http/schemas.js';
import { Bool, Text, Timestamp, strict } from '../record-fields.js';

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
export type UserRecord = Static<typeof UserRecord>;

import { type Static, Type } from 'typebox';
import { Id, NullableTimestamp, Page, PathId, ProjectId, PagedList, PerPage, Timestamp } from '../../http/schemas.js';
import { SUBSCRIPTION_STATUSES } from './record.js';

export const Subscription = Type.Object({
  plan_id: Id,
  price_id: Id,
  status: Type.Enum(SUBSCRIPTION_STATUSES),
  started_at: Timestamp,
  canceled_at: NullableTimestamp,
});
export type Subscription = Static<typeof Subscription>;

// No secret of a user (password, token) is stored, so none can be returned: the response
// schema lists every field that is serialised, and nothing else ever leaves the server.
export const User = Type.Object(
  {
    id: Id,
    email: Type.String(),
    name: Type.String(),
    email_verified: Type.Boolean(),
    created_at: Timestamp,
    last_login_at: NullableTimestamp,
    subscriptions: Type.Array(Subscription, { description: 'in the order they were stored' }),
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

export const UserList = PagedList(Type.Ref('User'));

export const UserListQuery = Type.Object(
  { page: Type.Optional(Page), perpage: Type.Optional(PerPage) },
  { additionalProperties: false },
);
export type UserListQuery = Static<typeof UserListQuery>;

export const UserParams = Type.Object({ project_id: ProjectId, user_id: PathId('user') });

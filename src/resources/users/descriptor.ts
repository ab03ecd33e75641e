import type { ResourceDescriptor } from '../descriptor.js';
import { deleteUsers } from './delete.js';
import { usersByIds } from './by-ids.js';
import { UserRecord } from './record.js';
import { checkUserReferences } from './references.js';
import { userRows } from './rows.js';

export const usersDescriptor: ResourceDescriptor<UserRecord> = {
  kind: 'users',
  type: 'user',
  record: UserRecord,
  readScope: 'users:read',
  children: [{ table: 'subscriptions', parent: 'user_id', field: 'subscriptions' }],
  presentByIds: usersByIds,
  events: { upsert: 'user.changed', delete: 'user.changed' },
  deleteRecords: deleteUsers,
  toRows: userRows,
  checkReferences: checkUserReferences,
};

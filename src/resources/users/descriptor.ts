import { pageWithParts } from '../../db/page-by-id.js';
import type { ResourceDescriptor } from '../descriptor.js';
import { deleteUsers } from './delete.js';
import { usersForFeed } from './feed.js';
import { presentUser } from './present.js';
import { UserRecord } from './record.js';
import { checkUserReferences } from './references.js';
import { subscriptionsOf } from './repository.js';
import { userRows } from './rows.js';

export const usersDescriptor: ResourceDescriptor<UserRecord> = {
  kind: 'users',
  type: 'user',
  record: UserRecord,
  readScope: 'users:read',
  children: [{ table: 'subscriptions', parent: 'user_id' }],
  presentForFeed: usersForFeed,
  deleteRecords: deleteUsers,
  toRows: userRows,
  checkReferences: checkUserReferences,
  exportPage: (db, projectId, after, limit) =>
    pageWithParts(db, 'users', projectId, after, limit, subscriptionsOf, presentUser),
};

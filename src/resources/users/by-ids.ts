import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { withParts } from '../../db/by-id.js';
import type { Viewer } from '../descriptor.js';
import { presentUser } from './present.js';
import { subscriptionsOf } from './repository.js';

/** Users by id, with their subscriptions, as GET …/users/<id> answers them. */
export function usersByIds(db: Kysely<Database>, viewer: Viewer, ids: number[]): Promise<Map<number, unknown>> {
  return withParts(db, 'users', viewer.projectId, ids, subscriptionsOf, presentUser);
}

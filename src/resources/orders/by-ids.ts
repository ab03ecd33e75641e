import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { withParts } from '../../db/by-id.js';
import type { Viewer } from '../descriptor.js';
import { presentOrder } from './present.js';
import { itemsOf } from './repository.js';

/** Orders by id, with their items, as GET …/orders/<id> answers them. */
export function ordersByIds(db: Kysely<Database>, viewer: Viewer, ids: number[]): Promise<Map<number, unknown>> {
  return withParts(db, 'orders', viewer.projectId, ids, itemsOf, presentOrder);
}

import { pageWithParts } from '../../db/page-by-id.js';
import type { ResourceDescriptor } from '../descriptor.js';
import { deleteOrders } from './delete.js';
import { ordersForFeed } from './feed.js';
import { presentOrder } from './present.js';
import { OrderRecord } from './record.js';
import { checkOrderReferences } from './references.js';
import { itemsOf } from './repository.js';
import { orderRows } from './rows.js';

export const ordersDescriptor: ResourceDescriptor<OrderRecord> = {
  kind: 'orders',
  type: 'order',
  record: OrderRecord,
  readScope: 'orders:read',
  children: [{ table: 'order_items', parent: 'order_id' }],
  presentForFeed: ordersForFeed,
  deleteRecords: deleteOrders,
  toRows: orderRows,
  checkReferences: checkOrderReferences,
  exportPage: (db, projectId, after, limit) =>
    pageWithParts(db, 'orders', projectId, after, limit, itemsOf, presentOrder),
};

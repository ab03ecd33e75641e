import { pageWithParts } from '../../db/page-by-id.js';
import type { ResourceDescriptor } from '../descriptor.js';
import { presentOrder } from './present.js';
import { OrderRecord } from './record.js';
import { checkOrderReferences } from './references.js';
import { itemsOf } from './repository.js';
import { orderRows } from './rows.js';

export const ordersDescriptor: ResourceDescriptor<OrderRecord> = {
  kind: 'orders',
  type: 'order',
  record: OrderRecord,
  children: [{ table: 'order_items', parent: 'order_id' }],
  toRows: orderRows,
  checkReferences: checkOrderReferences,
  exportPage: (db, projectId, after, limit) =>
    pageWithParts(db, 'orders', projectId, after, limit, itemsOf, presentOrder),
};

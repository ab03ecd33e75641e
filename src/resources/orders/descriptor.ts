import type { ResourceDescriptor } from '../descriptor.js';
import { deleteOrders } from './delete.js';
import { ordersByIds } from './by-ids.js';
import { OrderRecord } from './record.js';
import { checkOrderReferences } from './references.js';
import { orderRows } from './rows.js';

export const ordersDescriptor: ResourceDescriptor<OrderRecord> = {
  kind: 'orders',
  type: 'order',
  record: OrderRecord,
  readScope: 'orders:read',
  children: [{ table: 'order_items', parent: 'order_id', field: 'items' }],
  presentByIds: ordersByIds,
  events: { upsert: 'order.updated', delete: 'order.deleted' },
  deleteRecords: deleteOrders,
  toRows: orderRows,
  checkReferences: checkOrderReferences,
};

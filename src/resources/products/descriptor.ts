import type { ResourceDescriptor } from '../descriptor.js';
import { deleteProducts } from './delete.js';
import { productsByIds } from './by-ids.js';
import { ProductRecord } from './record.js';
import { checkProductReferences } from './references.js';
import { productRows } from './rows.js';
import { ProductTally } from './tally.js';

export const productsDescriptor: ResourceDescriptor<ProductRecord> = {
  kind: 'products',
  type: 'product',
  record: ProductRecord,
  handles: true,
  children: [{ table: 'product_categories', parent: 'product_id', field: 'category_ids' }],
  derived: { begin: (trx, projectId) => new ProductTally(trx, projectId) },
  check: (p) => (p.name.trim() === '' ? { field: 'name', message: 'must not be only white space' } : undefined),
  presentByIds: productsByIds,
  events: { upsert: 'product.updated', delete: 'product.deleted' },
  deleteRecords: deleteProducts,
  toRows: productRows,
  checkReferences: checkProductReferences,
};

import type { ResourceDescriptor } from '../descriptor.js';
import { deleteCategories } from './delete.js';
import { categoriesByIds } from './by-ids.js';
import { CategoryRecord } from './record.js';
import { checkCategoryReferences } from './references.js';
import { categoryRows } from './rows.js';

export const categoriesDescriptor: ResourceDescriptor<CategoryRecord> = {
  kind: 'categories',
  type: 'category',
  record: CategoryRecord,
  handles: true,
  children: [],
  presentByIds: categoriesByIds,
  events: { upsert: 'category.changed', delete: 'category.changed' },
  deleteRecords: deleteCategories,
  toRows: categoryRows,
  checkReferences: checkCategoryReferences,
};

import { pageById } from '../../db/page-by-id.js';
import type { ResourceDescriptor } from '../descriptor.js';
import { deleteCategories } from './delete.js';
import { categoriesForFeed } from './feed.js';
import { categoryRecord } from './present.js';
import { CategoryRecord } from './record.js';
import { checkCategoryReferences } from './references.js';
import { categoryRows } from './rows.js';

export const categoriesDescriptor: ResourceDescriptor<CategoryRecord> = {
  kind: 'categories',
  type: 'category',
  record: CategoryRecord,
  handles: true,
  children: [],
  presentForFeed: categoriesForFeed,
  deleteRecords: deleteCategories,
  toRows: categoryRows,
  checkReferences: checkCategoryReferences,
  exportPage: async (db, projectId, after, limit) =>
    (await pageById(db, 'categories', projectId, after, limit)).map(categoryRecord),
};

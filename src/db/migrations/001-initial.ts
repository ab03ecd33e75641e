import type { Kysely } from 'kysely';
import { autoId, autoIdType, byteCollated } from '../dialect.js';

// The whole schema. Every table of a project's data is keyed (project_id, id) so that
// records of different projects never collide and a distributed PostgreSQL can shard
// every table by project_id. Indexes follow the filters and orderings the API exposes.

export async function up(db: Kysely<any>): Promise<void> {
  await projectTables(db);
  await catalogTables(db);
  await subscriptionTables(db);
  await orderTables(db);
}

/** The projects and their API keys. */
async function projectTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_project').on('api_keys').columns(['project_id', 'id']).execute();
}

/** Categories, products and the links between them. */
async function catalogTables(db: Kysely<any>): Promise<void> {
  const ci = byteCollated(db);

  await db.schema
    .createTable('categories')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('handle', 'text', ci)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', ci)
    .addColumn('parent_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('categories_pk', ['project_id', 'id'])
    .addUniqueConstraint('categories_handle', ['project_id', 'handle'])
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('handle', 'text', ci)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', ci)
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addColumn('search_text', 'text', ci)
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('inventory_type', 'text', (c) => c.notNull())
    .addColumn('in_stock', 'integer', (c) => c.notNull())
    .addColumn('stock_quantity', 'integer', (c) => c.notNull())
    .addColumn('show_in_store', 'integer', (c) => c.notNull())
    .addColumn('custom_sort', 'bigint', (c) => c.notNull())
    .addColumn('images', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('products_pk', ['project_id', 'id'])
    .addUniqueConstraint('products_handle', ['project_id', 'handle'])
    .execute();
  // One index per ordering, led by visibility: the public list (show_in_store = 1) walks
  // the index in order and stops after one page.
  for (const key of ['created_at', 'name_key', 'price', 'custom_sort']) {
    await db.schema
      .createIndex(`products_by_${key}`)
      .on('products')
      .columns(['project_id', 'show_in_store', key, 'id'])
      .execute();
  }

  await db.schema
    .createTable('product_categories')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('category_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_categories_pk', ['project_id', 'product_id', 'category_id'])
    .execute();
  await db.schema
    .createIndex('product_categories_by_category')
    .on('product_categories')
    .columns(['project_id', 'category_id', 'product_id'])
    .execute();
}

/** Plans with their prices, users with their subscriptions. */
async function subscriptionTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plans_pk', ['project_id', 'id'])
    .execute();
  await db.schema.createIndex('plans_by_status').on('plans').columns(['project_id', 'status', 'id']).execute();

  await db.schema
    .createTable('plan_prices')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('interval_count', 'integer', (c) => c.notNull())
    .addColumn('trial_days', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_prices_pk', ['project_id', 'id'])
    .execute();
  await db.schema.createIndex('plan_prices_by_plan').on('plan_prices').columns(['project_id', 'plan_id']).execute();

  await db.schema
    .createTable('users')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .addPrimaryKeyConstraint('users_pk', ['project_id', 'id'])
    .execute();
  await db.schema.createIndex('users_by_created').on('users').columns(['project_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('price_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('canceled_at', 'bigint')
    .addPrimaryKeyConstraint('subscriptions_pk', ['project_id', 'user_id', 'position'])
    .execute();
}

/** Orders and their items. */
async function orderTables(db: Kysely<any>): Promise<void> {
  const ci = byteCollated(db);

  await db.schema
    .createTable('orders')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', ci)
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('fulfillment_status', 'text', (c) => c.notNull())
    .addColumn('is_canceled', 'integer', (c) => c.notNull())
    .addColumn('is_archived', 'integer', (c) => c.notNull())
    .addColumn('delivery_information', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('orders_pk', ['project_id', 'id'])
    .execute();
  // Newest-first lists, alone or narrowed by one filter, each walk one index in order.
  const orderIndexes: Record<string, string[]> = {
    orders_by_created: [],
    orders_by_payment: ['payment_status'],
    orders_by_fulfillment: ['fulfillment_status'],
    orders_by_email: ['email_key'],
    orders_by_canceled: ['is_canceled'],
    orders_by_archived: ['is_archived'],
  };
  for (const [name, cols] of Object.entries(orderIndexes)) {
    await db.schema
      .createIndex(name)
      .on('orders')
      .columns(['project_id', ...cols, 'created_at', 'id'])
      .execute();
  }

  await db.schema
    .createTable('order_items')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_items_pk', ['project_id', 'order_id', 'position'])
    .execute();
}

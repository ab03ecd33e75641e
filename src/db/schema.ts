import type { Generated } from 'kysely';
import type {
  ImportJobTable,
  WebhookAttemptTable,
  WebhookDeliveryTable,
  WebhookEndpointTable,
  WebhookMessageTable,
} from './schema-queues.js';

// Table shapes. Booleans are stored as 0/1 integers on both backends so that one query
// layer serves SQLite and PostgreSQL alike; times are unix seconds; ids are integers.

export interface ProjectTable {
  id: string;
  name: string;
  currency: string;
  created_at: number;
  updated_at: number;
  /** bumped with every write to the project's data: the key of every cache (migration 002) */
  data_version: Generated<number>;
  /** bumped with every change to the project's keys: the key cache's version (migration 007) */
  keys_version: Generated<number>;
  /**
   * the data_version of the last write that changed records of each type: the caches' keys,
   * by what each answer shows (migration 014, src/writes/type-versions.ts)
   */
  products_version: Generated<number>;
  categories_version: Generated<number>;
  plans_version: Generated<number>;
  users_version: Generated<number>;
  orders_version: Generated<number>;
  /**
   * the data_version of the last write that changed a product in a way a list can show by
   * where it is (membership, order, totals): not a stock change (migration 015)
   */
  product_lists_version: Generated<number>;
  /** the highest seq of a deletion purged from the change log: older cursors are gone (migration 008) */
  changes_floor: Generated<number>;
  /** this life of the project, random, made at its creation: in every cache key and cursor (migration 019) */
  incarnation: Generated<string>;
}

/** A key that manages projects, not any one project's (migration 019, src/keys/admin.ts). */
export interface AdminKeyTable {
  id: Generated<number>;
  label: string;
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ApiKeyTable {
  id: Generated<number>;
  project_id: string;
  label: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** the key's scopes, space-separated in the order of SCOPES (src/keys/scopes.ts; migration 007) */
  scopes: Generated<string>;
  /** unix seconds from which the key is refused; null: never (migration 007) */
  expires_at: number | null;
}

export interface CategoryTable {
  project_id: string;
  id: number;
  handle: string;
  name: string;
  name_key: string;
  parent_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProductTable {
  project_id: string;
  id: number;
  handle: string;
  name: string;
  /** lower-cased name: the key of case-insensitive ordering, identical on both backends */
  name_key: string;
  description: string;
  sku: string | null;
  /** lower-cased name, description and SKU, joined: what `search` looks in */
  search_text: string;
  price: number;
  inventory_type: 'simple' | 'advanced';
  in_stock: number;
  stock_quantity: number;
  show_in_store: number;
  custom_sort: number;
  images: string;
  created_at: number;
  updated_at: number;
}

export interface ProductCategoryTable {
  project_id: string;
  product_id: number;
  category_id: number;
}

/** Kept product counts per project, in all (category_id 0) and per category (migration 009). */
export interface ProductCountTable {
  project_id: string;
  category_id: number;
  /** products with show_in_store = 1 */
  visible: number;
  total: number;
}

/** Kept search-gram counts per project: products holding each gram of 1 to 3 characters (migration 011). */
export interface SearchGramTable {
  project_id: string;
  gram: string;
  /** products with show_in_store = 1 */
  visible: number;
  total: number;
}

/** Each project's vocabulary for `q`, with the data_version that added each word (migration 018). */
export interface SearchWordTable {
  project_id: string;
  word: string;
  seq: number;
}

/** A word of a product for `q` (migration 018): field 0 the name, 1 description or SKU. */
export interface SearchPostingTable {
  project_id: string;
  word: string;
  product_id: number;
  field: number;
}

export interface PlanTable {
  project_id: string;
  id: number;
  name: string;
  description: string;
  status: 'active' | 'deactivated' | 'archived' | 'deleted';
  created_at: number;
  updated_at: number;
}

export interface PlanPriceTable {
  project_id: string;
  id: number;
  plan_id: number;
  amount: number;
  currency: string;
  interval: 'day' | 'week' | 'month' | 'year' | 'one_time';
  interval_count: number;
  trial_days: number;
}

export interface UserTable {
  project_id: string;
  id: number;
  email: string;
  name: string;
  email_verified: number;
  created_at: number;
  last_login_at: number | null;
}

export interface SubscriptionTable {
  project_id: string;
  user_id: number;
  position: number;
  plan_id: number;
  price_id: number;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  started_at: number;
  canceled_at: number | null;
}

export interface OrderTable {
  project_id: string;
  id: number;
  customer_email: string;
  /** lower-cased email: customer_email filters match case-insensitively */
  email_key: string;
  customer_name: string;
  total: number;
  currency: string;
  payment_status: 'pending' | 'paid' | 'failed' | 'refunded';
  fulfillment_status: 'unfulfilled' | 'shipped' | 'ready_for_pickup' | 'delivered' | 'returned';
  is_canceled: number;
  is_archived: number;
  delivery_information: string;
  created_at: number;
  updated_at: number;
}

export interface OrderItemTable {
  project_id: string;
  order_id: number;
  position: number;
  product_id: number | null;
  name: string;
  quantity: number;
  price: number;
}

export interface IdempotencyKeyTable {
  project_id: string;
  key_id: number;
  idem_key: string;
  /** SHA-256 of the method, path and canonical JSON body of the first request */
  request_hash: string;
  status: number | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

/** The change log (migration 008, src/changes/): one row per changed record, its latest change. */
export interface ChangeTable {
  project_id: string;
  /** the record's type as the feed names it: product, category, plan, user, order */
  type: string;
  id: number;
  /** the project's data_version of the transaction that made the change: commit order */
  seq: number;
  action: 'upsert' | 'delete';
  changed_at: number;
}

/** A restore of a backup, per project: the versions it skipped (migration 020) */
export interface RestoreTable {
  project_id: string;
  version_before: number;
  version_after: number;
  restored_at: number;
}

/** A one-time download link of an export (migration 022; src/exports/download-links.ts). */
export interface DownloadLinkTable {
  project_id: string;
  /** sha-256 of the token; the token itself is never stored */
  token_hash: string;
  /** the key that made it (its scopes were checked then, and are again at the download) */
  key_id: number;
  /** `products.csv`, `orders.csv` or `project.ndjson` */
  file: string;
  /** the export's query, sorted, without the token */
  query: string;
  expires_at: number;
}

export interface Database {
  projects: ProjectTable;
  api_keys: ApiKeyTable;
  admin_keys: AdminKeyTable;
  categories: CategoryTable;
  products: ProductTable;
  product_categories: ProductCategoryTable;
  product_counts: ProductCountTable;
  search_grams: SearchGramTable;
  search_words: SearchWordTable;
  search_postings: SearchPostingTable;
  plans: PlanTable;
  plan_prices: PlanPriceTable;
  users: UserTable;
  subscriptions: SubscriptionTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  idempotency_keys: IdempotencyKeyTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_messages: WebhookMessageTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  changes: ChangeTable;
  import_jobs: ImportJobTable;
  restores: RestoreTable;
  download_links: DownloadLinkTable;
}

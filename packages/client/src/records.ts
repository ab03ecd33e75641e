// The records, queries and bodies of the API, as the server's own OpenAPI document describes
// them (openapi.generated.ts, made from the route schemas by scripts/client-types.js). Types
// only: nothing here exists at run time.

import type { components, paths } from './openapi.generated.js';

type Schemas = components['schemas'];
type Project = '/v2/projects/{project_id}';
type QueryOf<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Query } } }
  ? NonNullable<Query>
  : never;
type BodyOf<Path extends keyof paths, Method extends 'post' | 'patch' = 'post'> = paths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
type AnswerOf<
  Path extends keyof paths,
  Method extends 'get' | 'post' | 'patch' | 'delete',
  Status extends number,
> = paths[Path][Method] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Answer } } };
}
  ? Answer
  : never;

export type Product = Schemas['Product'];
export type Plan = Schemas['Plan'];
export type User = Schemas['User'];
export type Order = Schemas['Order'];
/** A category with its subcategories, nested to any depth. */
export type Category = Schemas['Category'];

/** An API key without its secret, as `GET /keys/` lists it. */
export type Key = Schemas['Key'];
/** The calling key (`GET /keys/current`): what it may do and until when. */
export type CurrentKey = Schemas['CurrentKey'];
export type Scope = Key['scopes'][number];
export type KeyCreate = BodyOf<`${Project}/keys/`>;
export type KeyRoll = BodyOf<`${Project}/keys/{key_id}/roll`>;
/** A new key: its secret is in `key`, shown this once. */
export type CreatedKey = AnswerOf<`${Project}/keys/`, 'post', 201>;
export type RolledKey = AnswerOf<`${Project}/keys/{key_id}/roll`, 'post', 201>;
/** The admin API (`createAdminClient`): a new project's body, the answer with its first key, a listed project. */
export type ProjectCreate = paths['/v2/projects']['post']['requestBody']['content']['application/json'];
export type CreatedProject = AnswerOf<'/v2/projects', 'post', 201>;
export type AdminProject = Schemas['AdminProject'];
export type ProjectList = AnswerOf<'/v2/projects', 'get', 200>;
/** The project as an import file names it: id, name, currency (`GET /v2/projects/<id>`). */
export type ProjectInfo = AnswerOf<Project, 'get', 200>;
export type RevokedKey = AnswerOf<`${Project}/keys/{key_id}/revoke`, 'post', 200>;

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookCreate = BodyOf<`${Project}/webhooks/`>;
export type WebhookRoll = BodyOf<`${Project}/webhooks/{endpoint_id}/roll-secret`>;
/** An endpoint with its signing secret, shown this once (create and roll-secret). */
export type WebhookEndpointWithSecret = AnswerOf<`${Project}/webhooks/`, 'post', 201>;
export type WebhookDelivery = AnswerOf<`${Project}/webhooks/{endpoint_id}/deliveries`, 'get', 200>['data'][number];
export type WebhookAttempt = WebhookDelivery['attempts'][number];
export type WebhookReplay = AnswerOf<`${Project}/webhooks/messages/{message_id}/replay`, 'post', 200>;

/** `GET /plans/` takes `fetch_inactive=true` (plans of every status; needs any key of the project). */
export type PlanListQuery = QueryOf<`${Project}/plans/`>;
export type ProductListQuery = QueryOf<`${Project}/products/`>;
/** `GET /products/<product>` takes `fetch_hidden` (needs an API key when true). */
export type ProductGetQuery = QueryOf<`${Project}/products/{product}`>;
export type ProductUpdate = BodyOf<`${Project}/products/{product}`>;
/** One item of `PATCH /products/`: `id` or `handle`, the fields of ProductUpdate, an optional `if_match`. */
export type ProductBatchItem = BodyOf<`${Project}/products/`, 'patch'>['products'][number];
/** The answer of `PATCH /products/`: the updated products, in the order of the request. */
export type ProductBatchResult = AnswerOf<`${Project}/products/`, 'patch', 200>;
export type OrderListQuery = QueryOf<`${Project}/orders/`>;
export type OrderUpdate = BodyOf<`${Project}/orders/{order_id}`>;
export type UserListQuery = QueryOf<`${Project}/users/`>;
/** `GET /categories/` takes `root-category` to return one subtree. */
export type CategoryListQuery = QueryOf<`${Project}/categories/`>;

/** `GET /exports/products.csv`: the products list's filters and `order`, without paging. */
export type ProductsExportQuery = QueryOf<`${Project}/exports/products.csv`>;
/** `GET /exports/orders.csv`: the orders list's filters, without paging. */
export type OrdersExportQuery = QueryOf<`${Project}/exports/orders.csv`>;
/** `POST /exports/<file>/link`: a path that downloads the export once, without a key. */
export type DownloadLink = AnswerOf<`${Project}/exports/orders.csv/link`, 'post', 201>;

export type OrderItem = Order['items'][number];
export type PaymentStatus = Order['payment_status'];
export type FulfillmentStatus = Order['fulfillment_status'];
export type Subscription = User['subscriptions'][number];

/** The envelope of the users, products and orders lists. */
export interface Paged<T> {
  data: T[];
  meta: { page: number; perpage: number; total: number; pages: number };
}

/** One answer of the products list, as the server's document describes it. */
type ProductListAnswer = paths[`${Project}/products/`]['get']['responses'][200]['content']['application/json'];

/** `meta.facets` of the products list (`facets=category,price,in_stock,inventory_type`). */
export type ProductFacets = NonNullable<ProductListAnswer['meta']['facets']>;

/** A page of the products list: with `facets=`, its meta holds the counts. */
export interface ProductPage extends Paged<Product> {
  meta: Paged<Product>['meta'] & { facets?: ProductFacets };
}

/** The plans list: active plans only (every status with `fetch_inactive=true`), not paged. */
export interface PlanList {
  data: Plan[];
}

/** `GET /changes/` takes `since`, `limit`, `types` (comma-separated) and `fetch_hidden`. */
export type ChangesQuery = QueryOf<`${Project}/changes/`>;
/** One answer of `GET /changes/`, as the server's document describes it. */
type FeedAnswer = paths[`${Project}/changes/`]['get']['responses'][200]['content']['application/json'];

/** What the change feed reports on: one record type each. */
export type ChangeType = FeedAnswer['data'][number]['type'];

/** A category as the change feed gives it: flat, the tree following from `parent_id`. */
export type FeedCategory = Schemas['FeedCategory'];

/** The record each type of change carries. */
export interface ChangeRecords {
  product: Product;
  category: FeedCategory;
  plan: Plan;
  user: User;
  order: Order;
}

/**
 * One entry of the feed: the record's state when the answer was made, or its deletion. The
 * document's entry with `type` and `record` tied together, so that a check of `type` tells
 * TypeScript the record's shape.
 */
export type Change = {
  [T in ChangeType]:
    | { type: T; id: number; action: 'upsert'; record: ChangeRecords[T]; changed_at: number }
    | { type: T; id: number; action: 'delete'; record: null; changed_at: number };
}[ChangeType];

/** One answer of `GET /changes/`; an entry that stopped matching the document's would be `never`. */
export interface ChangesPage extends Omit<FeedAnswer, 'data'> {
  data: (Change extends FeedAnswer['data'][number] ? Change : never)[];
}

/** An import job (`POST /imports/`): its status, progress, counts and errors by place. */
export type Import = Schemas['Import'];
export type ImportStatus = Import['status'];
/** The media types an import is sent as: a JSON document or NDJSON lines. */
export type ImportFormat = Import['format'];

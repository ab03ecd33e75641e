// The records and queries of the API, typed by the server's own schemas. Every import here
// is `import type`: it vanishes from the compiled client, which so has no runtime dependency.

import type { CategoryNode } from '../resources/categories/schemas.js';
import type { Order, OrderListQuery, OrderUpdate } from '../resources/orders/schemas.js';
import type { Plan } from '../resources/plans/schemas.js';
import type { Product, ProductListQuery, ProductUpdate } from '../resources/products/schemas.js';
import type { User, UserListQuery } from '../resources/users/schemas.js';

export type { Order, OrderListQuery, OrderUpdate, Plan, Product, ProductListQuery, ProductUpdate, User, UserListQuery };

export type OrderItem = Order['items'][number];
export type PaymentStatus = Order['payment_status'];
export type FulfillmentStatus = Order['fulfillment_status'];
export type Subscription = User['subscriptions'][number];

/** A category with its subcategories, nested to any depth. */
export type Category = CategoryNode;

/** `GET /categories/` takes `root-category` to return one subtree. */
export interface CategoryListQuery {
  'root-category'?: number;
}

/** `GET /products/<product>` takes `fetch_hidden` (needs an API key when true). */
export interface ProductGetQuery {
  fetch_hidden?: boolean;
}

/** The envelope of the users, products and orders lists. */
export interface Paged<T> {
  data: T[];
  meta: { page: number; perpage: number; total: number; pages: number };
}

/** The plans list: active plans only, not paged. */
export interface PlanList {
  data: Plan[];
}

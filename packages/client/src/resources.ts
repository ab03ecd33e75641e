import type { Api } from './api.js';
import { type WalkOptions, listWalk } from './list-walk.js';
import { queryString, segment } from './query.js';
import type {
  Category,
  CategoryListQuery,
  Order,
  OrderListQuery,
  OrderUpdate,
  Paged,
  Plan,
  PlanList,
  PlanListQuery,
  Product,
  ProductBatchItem,
  ProductBatchResult,
  ProductGetQuery,
  ProductListQuery,
  ProductPage,
  ProductUpdate,
  User,
  UserListQuery,
} from './records.js';

// Typed helpers: each is one call of api() with a typed path, query and answer, nothing more.
// `all()` walks every page of a paged list (list-walk.ts), for site generators and exports
// that need the whole list, without skipping or repeating a record while the list changes.

export function productHelpers(api: Api) {
  return {
    list: (query?: ProductListQuery) => api<ProductPage>(`/products/${queryString(query)}`),
    get: (product: number | string, query?: ProductGetQuery) =>
      api<Product>(`/products/${segment(product)}${queryString(query)}`),
    update: (product: number | string, changes: ProductUpdate) =>
      api<Product>(`/products/${segment(product)}`, { method: 'POST', body: changes }),
    /** Many products at once, all or nothing (`PATCH /products/`); a retry with the same idempotencyKey writes once. */
    updateMany: (items: ProductBatchItem[], options: { idempotencyKey?: string } = {}) =>
      api<ProductBatchResult>('/products/', {
        method: 'PATCH',
        body: { products: items },
        headers: options.idempotencyKey === undefined ? undefined : { 'idempotency-key': options.idempotencyKey },
      }),
    all: (query: Omit<ProductListQuery, 'page'> = {}, options?: WalkOptions) =>
      listWalk<Product>(api, '/products/', query, { type: 'product', fetchHidden: query.fetch_hidden }, options),
  };
}

export function planHelpers(api: Api) {
  return {
    list: (query?: PlanListQuery) => api<PlanList>(`/plans/${queryString(query)}`),
    get: (plan: number) => api<Plan>(`/plans/${segment(plan)}`),
  };
}

export function categoryHelpers(api: Api) {
  return {
    list: (query?: CategoryListQuery) => api<Category[]>(`/categories/${queryString(query)}`),
    get: (category: number | string) => api<Category>(`/categories/${segment(category)}`),
  };
}

export function orderHelpers(api: Api) {
  return {
    list: (query?: OrderListQuery) => api<Paged<Order>>(`/orders/${queryString(query)}`),
    get: (order: number) => api<Order>(`/orders/${segment(order)}`),
    update: (order: number, changes: OrderUpdate) =>
      api<Order>(`/orders/${segment(order)}`, { method: 'POST', body: changes }),
    all: (query: Omit<OrderListQuery, 'page'> = {}, options?: WalkOptions) =>
      listWalk<Order>(api, '/orders/', query, { type: 'order' }, options),
  };
}

export function userHelpers(api: Api) {
  return {
    list: (query?: UserListQuery) => api<Paged<User>>(`/users/${queryString(query)}`),
    get: (user: number) => api<User>(`/users/${segment(user)}`),
    all: (query: Omit<UserListQuery, 'page'> = {}, options?: WalkOptions) =>
      listWalk<User>(api, '/users/', query, { type: 'user' }, options),
  };
}

/** Every resource's helpers over one api function. */
export function resourceHelpers(api: Api) {
  return {
    products: productHelpers(api),
    plans: planHelpers(api),
    categories: categoryHelpers(api),
    orders: orderHelpers(api),
    users: userHelpers(api),
  };
}

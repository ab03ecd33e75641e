import type { Api } from './api.js';
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
  Product,
  ProductGetQuery,
  ProductListQuery,
  ProductUpdate,
  User,
  UserListQuery,
} from './records.js';

// Typed helpers: each is one call of api() with a typed path, query and answer, nothing more.
// `all()` walks every page of a paged list, for site generators that need the whole catalog.

/** The largest page the API serves: the fewest requests for a full walk. */
const WALK_PERPAGE = 100;

/** Yields every record of a paged list, page by page, until the last page. */
async function* walk<T, Q extends { page?: number; perpage?: number }>(
  api: Api,
  path: string,
  query: Omit<Q, 'page'> = {} as Q,
): AsyncGenerator<T, void, undefined> {
  const perpage = query.perpage ?? WALK_PERPAGE;
  for (let page = 1; ; page++) {
    const answer = await api<Paged<T>>(path + queryString({ ...query, page, perpage }));
    yield* answer.data;
    if (answer.data.length === 0 || page >= answer.meta.pages) return;
  }
}

export function productHelpers(api: Api) {
  return {
    list: (query?: ProductListQuery) => api<Paged<Product>>(`/products/${queryString(query)}`),
    get: (product: number | string, query?: ProductGetQuery) =>
      api<Product>(`/products/${segment(product)}${queryString(query)}`),
    update: (product: number | string, changes: ProductUpdate) =>
      api<Product>(`/products/${segment(product)}`, { method: 'POST', body: changes }),
    all: (query?: Omit<ProductListQuery, 'page'>) => walk<Product, ProductListQuery>(api, '/products/', query),
  };
}

export function planHelpers(api: Api) {
  return {
    list: () => api<PlanList>('/plans/'),
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
    all: (query?: Omit<OrderListQuery, 'page'>) => walk<Order, OrderListQuery>(api, '/orders/', query),
  };
}

export function userHelpers(api: Api) {
  return {
    list: (query?: UserListQuery) => api<Paged<User>>(`/users/${queryString(query)}`),
    get: (user: number) => api<User>(`/users/${segment(user)}`),
    all: (query?: Omit<UserListQuery, 'page'>) => walk<User, UserListQuery>(api, '/users/', query),
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

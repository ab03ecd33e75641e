import type { JSX } from 'preact';
import type { Scope } from 'storefront-client';
import type { IconName } from './parts/icons.js';
import { Categories } from './screens/categories.js';
import { Home } from './screens/home.js';
import { Imports } from './screens/imports.js';
import { Keys } from './screens/keys.js';
import { OrderDetail } from './screens/order-detail.js';
import { Orders } from './screens/orders.js';
import { Plans } from './screens/plans.js';
import { Products } from './screens/products.js';
import { Users } from './screens/users.js';
import { Webhooks } from './screens/webhooks.js';

// The screens, in the order of the menu, with the scope each needs to show anything: this one
// table makes the menu, the router (app.tsx) and the page titles.

export interface Screen {
  path: string;
  title: string;
  icon: IconName;
  /** the scope without which the screen has nothing to show (null: any key) */
  scope: Scope | null;
  /** what the screen's path shows */
  view: () => JSX.Element;
  /** what `<path>/<id>` shows (one record), if the screen has such a page */
  detail?: (props: { id: number }) => JSX.Element;
}

export const SCREENS: Screen[] = [
  { path: '/', title: 'Home', icon: 'home', scope: null, view: Home },
  { path: '/orders', title: 'Orders', icon: 'orders', scope: 'orders:read', view: Orders, detail: OrderDetail },
  { path: '/products', title: 'Products', icon: 'products', scope: null, view: Products },
  { path: '/categories', title: 'Categories', icon: 'categories', scope: null, view: Categories },
  { path: '/plans', title: 'Plans', icon: 'plans', scope: null, view: Plans },
  { path: '/users', title: 'Users', icon: 'users', scope: 'users:read', view: Users },
  { path: '/keys', title: 'Keys', icon: 'keys', scope: 'keys:manage', view: Keys },
  { path: '/webhooks', title: 'Webhooks', icon: 'webhooks', scope: 'webhooks:manage', view: Webhooks },
  { path: '/imports', title: 'Imports', icon: 'imports', scope: 'imports:write', view: Imports },
];

/** The screen a path belongs to: "/orders/12" is under Orders. */
export function screenOf(path: string): Screen | undefined {
  return SCREENS.find((s) => (s.path === '/' ? path === '/' : path === s.path || path.startsWith(`${s.path}/`)));
}

import type { Scope } from 'storefront-client';
import type { IconName } from './parts/icons.js';

// The screens, in the order of the menu, with the scope each needs to show anything.

export interface Screen {
  path: string;
  title: string;
  icon: IconName;
  /** the scope without which the screen has nothing to show (null: any key) */
  scope: Scope | null;
}

export const SCREENS: Screen[] = [
  { path: '/', title: 'Home', icon: 'home', scope: null },
  { path: '/orders', title: 'Orders', icon: 'orders', scope: 'orders:read' },
  { path: '/products', title: 'Products', icon: 'products', scope: null },
  { path: '/categories', title: 'Categories', icon: 'categories', scope: null },
  { path: '/plans', title: 'Plans', icon: 'plans', scope: null },
  { path: '/users', title: 'Users', icon: 'users', scope: 'users:read' },
  { path: '/keys', title: 'Keys', icon: 'keys', scope: 'keys:manage' },
  { path: '/webhooks', title: 'Webhooks', icon: 'webhooks', scope: 'webhooks:manage' },
  { path: '/imports', title: 'Imports', icon: 'imports', scope: 'imports:write' },
];

/** The screen a path belongs to: "/orders/12" is under Orders. */
export function screenOf(path: string): Screen | undefined {
  return SCREENS.find((s) => (s.path === '/' ? path === '/' : path === s.path || path.startsWith(`${s.path}/`)));
}

import type { Insertable } from 'kysely';
import type {
  CategoryTable,
  OrderItemTable,
  OrderTable,
  PlanPriceTable,
  PlanTable,
  ProductCategoryTable,
  ProductTable,
  SubscriptionTable,
  UserTable,
} from '../db/schema.js';
import type { CategoryRecord, OrderRecord, PlanRecord, ProductRecord, UserRecord } from '../import/records.js';
import { nameKey, searchText } from '../resources/products/present.js';
import type { WithId } from './catalog.js';

// Generated records as table rows, exactly as the import stages them (src/import/session.ts):
// the same derived columns (name_key, search_text, email_key) from the same functions. The
// generator only skips the import's validation, which its records pass by construction
// (test/generate proves it by importing an export of a generated project).

export function categoryRow(pid: string, c: WithId<CategoryRecord>): Insertable<CategoryTable> {
  const created_at = c.created_at!;
  return {
    project_id: pid,
    id: c.id,
    handle: c.handle,
    name: c.name,
    name_key: nameKey(c.name),
    parent_id: c.parent_id ?? null,
    created_at,
    updated_at: c.updated_at ?? created_at,
  };
}

export function productRows(
  pid: string,
  p: WithId<ProductRecord>,
): { row: Insertable<ProductTable>; links: Insertable<ProductCategoryTable>[] } {
  const description = p.description ?? '';
  const sku = p.sku ?? null;
  const created_at = p.created_at!;
  return {
    row: {
      project_id: pid,
      id: p.id,
      handle: p.handle,
      name: p.name,
      name_key: nameKey(p.name),
      description,
      sku,
      search_text: searchText(p.name, description, sku),
      price: p.price,
      inventory_type: p.inventory_type ?? 'simple',
      in_stock: p.in_stock === false ? 0 : 1,
      stock_quantity: p.stock_quantity ?? 0,
      show_in_store: p.show_in_store === false ? 0 : 1,
      custom_sort: p.custom_sort ?? 0,
      images: JSON.stringify(p.images ?? []),
      created_at,
      updated_at: p.updated_at ?? created_at,
    },
    links: (p.category_ids ?? []).map((category_id) => ({ project_id: pid, product_id: p.id, category_id })),
  };
}

export function planRows(
  pid: string,
  p: WithId<PlanRecord>,
): { row: Insertable<PlanTable>; prices: Insertable<PlanPriceTable>[] } {
  const created_at = p.created_at!;
  return {
    row: {
      project_id: pid,
      id: p.id,
      name: p.name,
      description: p.description ?? '',
      status: p.status ?? 'active',
      created_at,
      updated_at: p.updated_at ?? created_at,
    },
    prices: (p.prices ?? []).map((x) => ({
      project_id: pid,
      id: x.id!,
      plan_id: p.id,
      amount: x.amount,
      currency: x.currency ?? 'USD',
      interval: x.interval,
      interval_count: x.interval_count ?? 1,
      trial_days: x.trial_days ?? 0,
    })),
  };
}

export function userRows(
  pid: string,
  u: WithId<UserRecord>,
): { row: Insertable<UserTable>; subscriptions: Insertable<SubscriptionTable>[] } {
  const created_at = u.created_at!;
  return {
    row: {
      project_id: pid,
      id: u.id,
      email: u.email,
      name: u.name ?? '',
      email_verified: u.email_verified ? 1 : 0,
      created_at,
      last_login_at: u.last_login_at ?? null,
    },
    subscriptions: (u.subscriptions ?? []).map((s, position) => ({
      project_id: pid,
      user_id: u.id,
      position,
      plan_id: s.plan_id,
      price_id: s.price_id,
      status: s.status,
      started_at: s.started_at ?? created_at,
      canceled_at: s.canceled_at ?? null,
    })),
  };
}

export function orderRows(
  pid: string,
  o: WithId<OrderRecord>,
  currency: string,
): { row: Insertable<OrderTable>; items: Insertable<OrderItemTable>[] } {
  const created_at = o.created_at!;
  const items = o.items ?? [];
  return {
    row: {
      project_id: pid,
      id: o.id,
      customer_email: o.customer_email,
      email_key: o.customer_email.toLowerCase(),
      customer_name: o.customer_name ?? '',
      total: o.total ?? items.reduce((sum, i) => sum + i.quantity * i.price, 0),
      currency: o.currency ?? currency,
      payment_status: o.payment_status ?? 'pending',
      fulfillment_status: o.fulfillment_status ?? 'unfulfilled',
      is_canceled: o.is_canceled ? 1 : 0,
      is_archived: o.is_archived ? 1 : 0,
      delivery_information: o.delivery_information ?? '',
      created_at,
      updated_at: o.updated_at ?? created_at,
    },
    items: items.map((i, position) => ({
      project_id: pid,
      order_id: o.id,
      position,
      product_id: i.product_id,
      name: i.name,
      quantity: i.quantity,
      price: i.price,
    })),
  };
}

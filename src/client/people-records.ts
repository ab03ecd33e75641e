// Users and orders, written from CONTRACT section 3 and SPEC 4.2/4.5 because their server
// schemas (src/resources/users|orders/schemas.ts) were not on main yet. When they land, these
// become `import type` re-exports like the ones in records.ts.

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'refunded';
export type FulfillmentStatus = 'unfulfilled' | 'shipped' | 'ready_for_pickup' | 'delivered' | 'returned';

export interface Subscription {
  plan_id: number;
  price_id: number;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  started_at: number;
  canceled_at: number | null;
}

export interface User {
  id: number;
  email: string;
  name: string;
  email_verified: boolean;
  created_at: number;
  last_login_at: number | null;
  subscriptions: Subscription[];
}

export interface UserListQuery {
  page?: number;
  perpage?: number;
}

export interface OrderItem {
  /** null when the product was removed */
  product_id: number | null;
  name: string;
  quantity: number;
  price: number;
}

export interface Order {
  id: number;
  customer_email: string;
  customer_name: string;
  items: OrderItem[];
  total: number;
  currency: string;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  is_canceled: boolean;
  is_archived: boolean;
  delivery_information: string;
  created_at: number;
  updated_at: number;
}

export interface OrderListQuery {
  page?: number;
  perpage?: number;
  payment_status?: PaymentStatus;
  fulfillment_status?: FulfillmentStatus;
  is_canceled?: boolean;
  is_archived?: boolean;
  /** matched case-insensitively */
  customer_email?: string;
  /** unix seconds, exclusive */
  created_after?: number;
  /** unix seconds, exclusive */
  created_before?: number;
}

export interface OrderUpdate {
  payment_status?: PaymentStatus;
  fulfillment_status?: FulfillmentStatus;
  is_canceled?: boolean | 'true' | 'false';
  is_archived?: boolean | 'true' | 'false';
  delivery_information?: string;
}

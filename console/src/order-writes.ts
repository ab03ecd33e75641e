import { ApiError, type Order, type OrderUpdate } from 'storefront-client';
import { api } from './session.js';

// Order changes with optimistic concurrency: every change carries the If-Match of the
// version the operator saw, and a 412 comes back as a Conflict holding the newer order.

export interface Versioned {
  order: Order;
  etag: string;
}

export class Conflict extends Error {
  constructor(readonly newer: Versioned) {
    super(`Order ${newer.order.id} was changed by someone else since you loaded it; nothing was saved.`);
  }
}

export async function readOrder(id: number): Promise<Versioned> {
  const answer = await api().api<Order>(`/orders/${id}`, { raw: true });
  return { order: answer.body, etag: answer.etag ?? '*' };
}

/** The change, applied only if the order is still the version `etag` names. */
export async function changeOrder(id: number, change: OrderUpdate, etag: string): Promise<Versioned> {
  try {
    const answer = await api().api<Order>(`/orders/${id}`, {
      method: 'POST',
      body: change,
      headers: { 'if-match': etag },
      raw: true,
    });
    return { order: answer.body, etag: answer.etag ?? (await readOrder(id)).etag };
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) throw new Conflict(await readOrder(id));
    throw error;
  }
}

/**
 * A change to an order as the list showed it: the order is read for its ETag, and when it
 * differs from what the list showed (updated_at moved) the change is refused as a conflict,
 * so that a bulk change never overwrites what the operator did not see.
 */
export async function changeListed(shown: Order, change: OrderUpdate): Promise<Versioned> {
  const now = await readOrder(shown.id);
  if (now.order.updated_at !== shown.updated_at) throw new Conflict(now);
  return changeOrder(shown.id, change, now.etag);
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ifMatchRow } from '../../http/if-match.js';
import { EmptyQuery, errorResponses, pageMeta, ProjectParams } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { type OrderRow, presentOrder } from './present.js';
import { type OrderFilter, getOrder, itemsOf, listOrders } from './repository.js';
import { updateOrder } from './update.js';
import { OrderList, OrderListQuery, OrderParams, OrderUpdate } from './schemas.js';

const OrderRef = Type.Ref('Order');

export async function orderRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  readRoutes(app);
  updateRoute(app);
}

/** The list, newest first, and one order with its items. */
function readRoutes(app: TypedApp): void {
  app.get('/orders/', {
    // Kept per orders version (src/plugins/answer-cache.ts); the key is checked before.
    config: { auth: 'key', scope: 'orders:read', answerCache: 'orders' },
    schema: {
      operationId: 'listOrders',
      params: ProjectParams,
      summary: 'List orders, newest first',
      description: 'Sorted by created_at, then id, both descending. All filters combine with AND.',
      tags: ['orders'],
      querystring: OrderListQuery,
      response: { 200: OrderList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const perpage = q.perpage ?? 20;
      const { rows, total, items } = await listOrders(
        request.reads,
        orderFilterOf(request.project.id, q),
        page,
        perpage,
        { cache: app.counts, project: request.project },
      );
      return { data: rows.map((r) => presentOrder(r, items.get(r.id) ?? [])), meta: pageMeta(page, perpage, total) };
    },
  });

  app.get('/orders/:order_id', {
    config: { auth: 'key', scope: 'orders:read' },
    schema: {
      operationId: 'getOrder',
      summary: 'Get an order',
      description: 'The order with its items, in stored order. An unknown id, or one of another project, is 404.',
      tags: ['orders'],
      params: OrderParams,
      querystring: EmptyQuery,
      response: { 200: OrderRef, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const id = request.params.order_id;
      const found = await getOrder(request.reads, request.project.id, id);
      if (!found) throw new ApiError(404, `order ${id} not found`);
      return presentOrder(found.row, found.items);
    },
  });
}

/** One order changed: its statuses, flags and delivery information. */
function updateRoute(app: TypedApp): void {
  app.post('/orders/:order_id', {
    config: {
      auth: 'key',
      scope: 'orders:write',
      exists: async (request) => {
        const id = (request.params as { order_id: number }).order_id;
        return (await getOrder(request.reads, request.project.id, id)) !== undefined;
      },
    },
    schema: {
      operationId: 'updateOrder',
      summary: 'Update an order',
      description: 'Changes only the fields sent, atomically, and answers with the whole updated order.',
      tags: ['orders'],
      params: OrderParams,
      querystring: EmptyQuery,
      body: OrderUpdate,
      response: { 200: OrderRef, ...errorResponses(400, 401, 404, 409, 412, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const id = request.params.order_id;
      const check = ifMatchRow(request, reply, async (trx: Kysely<Database>, current: OrderRow) => {
        const items = await itemsOf(trx, request.project.id, [current.id]);
        return presentOrder(current, items.get(current.id) ?? []);
      });
      const updated = await updateOrder(app.storage, request.project.id, id, request.body, check);
      if (!updated) throw new ApiError(404, `order ${id} not found`);
      return presentOrder(updated.row, updated.items);
    },
  });
}

/** The list's filters as the query gives them (the list and its export take the same). */
export function orderFilterOf(projectId: string, q: Omit<OrderListQuery, 'page' | 'perpage'>): OrderFilter {
  return {
    projectId,
    paymentStatus: q.payment_status,
    fulfillmentStatus: q.fulfillment_status,
    isCanceled: q.is_canceled,
    isArchived: q.is_archived,
    customerEmail: q.customer_email,
    createdAfter: q.created_after,
    createdBefore: q.created_before,
  };
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, invalid } from '../../errors.js';
import { ifMatch } from '../../http/if-match.js';
import { parseIdList, parseRef } from '../../http/params.js';
import { EmptyQuery, errorResponses, pageMeta, ProjectParams } from '../../http/schemas.js';
import { presentProduct } from './present.js';
import { type ProductFilter, listProducts } from './list.js';
import { categoryIdsOf, findProduct } from './repository.js';
import { updateProduct } from './update.js';
import {
  ORDER_CLAUSES,
  type OrderClause,
  ProductGetQuery,
  ProductList,
  ProductListQuery,
  ProductParams,
  ProductUpdate,
} from './schemas.js';
import { Type } from 'typebox';

const ProductRef = Type.Ref('Product');

export async function productRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/products/', {
    config: { auth: 'fetch_hidden', scope: 'products:read_hidden', answerCache: 'products' },
    schema: {
      operationId: 'listProducts',
      params: ProjectParams,
      summary: 'List products',
      description:
        'Visible products, filtered (category, search, ids; all combine with AND), sorted by `order` (default date_desc, ties by id) and paged. `fetch_hidden=true` adds hidden products and needs a key with products:read_hidden.',
      tags: ['products'],
      querystring: ProductListQuery,
      response: { 200: ProductList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const perpage = q.perpage ?? 20;
      const { rows, total, categories } = await listProducts(
        app.storage.reads,
        productFilterOf(request.project.id, q),
        parseOrder(q.order),
        page,
        perpage,
        { cache: app.counts, project: request.project },
      );
      return {
        data: rows.map((r) => presentProduct(r, request.project.currency, categories.get(r.id) ?? [])),
        meta: pageMeta(page, perpage, total),
      };
    },
  });

  app.get('/products/:product', {
    config: { auth: 'fetch_hidden', scope: 'products:read_hidden', answerCache: 'products' },
    schema: {
      operationId: 'getProduct',
      summary: 'Get a product by id or handle',
      description:
        'All digits is an id, anything else a handle. A hidden product is 404 unless `fetch_hidden=true` is asked with a key holding products:read_hidden.',
      tags: ['products'],
      params: ProductParams,
      querystring: ProductGetQuery,
      response: { 200: ProductRef, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const ref = parseRef(request.params.product, 'product');
      const found = await findProduct(app.storage.reads, request.project.id, ref, request.query.fetch_hidden === true);
      if (!found) throw new ApiError(404, `product ${JSON.stringify(request.params.product)} not found`);
      return presentProduct(found.row, request.project.currency, found.categoryIds);
    },
  });

  app.post('/products/:product', {
    config: { auth: 'key', scope: 'products:write' },
    schema: {
      operationId: 'updateProduct',
      summary: 'Update a product',
      description:
        'Changes only the fields sent, atomically, and answers with the whole updated product; hidden products too. `in_stock` applies to a product that is simple after this update, `stock_quantity` to one that is advanced: the other is a 400 saying so (the stored inventory_type counts when the body does not change it).',
      tags: ['products'],
      params: ProductParams,
      querystring: EmptyQuery,
      body: ProductUpdate,
      response: { 200: ProductRef, ...errorResponses(400, 401, 404, 409, 412, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const ref = parseRef(request.params.product, 'product');
      const { currency } = request.project;
      const precondition = ifMatch(request, reply);
      const row = await updateProduct(
        app.storage,
        request.project.id,
        ref,
        request.body,
        precondition &&
          (async (trx, current) => {
            const categories = await categoryIdsOf(trx, request.project.id, [current.id]);
            precondition(presentProduct(current, currency, categories.get(current.id) ?? []));
          }),
      );
      if (!row) throw new ApiError(404, `product ${JSON.stringify(request.params.product)} not found`);
      const categories = await categoryIdsOf(app.storage.db, request.project.id, [row.id]);
      return presentProduct(row, request.project.currency, categories.get(row.id) ?? []);
    },
  });
}

/** `order=price_asc,name_asc`: clauses applied left to right; default newest first. */
export function parseOrder(value: string | undefined): OrderClause[] {
  if (value === undefined) return ['date_desc'];
  const clauses = value.split(',');
  if (!clauses.every((c): c is OrderClause => (ORDER_CLAUSES as readonly string[]).includes(c))) {
    throw invalid('order', `must be one or more comma-separated clauses of ${ORDER_CLAUSES.join(', ')}`);
  }
  return clauses;
}

/** The list's filters as the query gives them (the list and its export take the same). */
export function productFilterOf(projectId: string, q: Omit<ProductListQuery, 'page' | 'perpage'>): ProductFilter {
  return {
    projectId,
    includeHidden: q.fetch_hidden === true,
    categoryId: q.category,
    search: q.search || undefined,
    ids: q.ids === undefined ? undefined : parseIdList(q.ids),
  };
}

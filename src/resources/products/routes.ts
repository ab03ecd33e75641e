import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, invalid } from '../../errors.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ifMatchRow } from '../../http/if-match.js';
import { parseIdList, parseRef } from '../../http/params.js';
import { EmptyQuery, errorResponses, pageMeta, ProjectParams } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { tagProducts } from '../../plugins/cdn-tags.js';
import { type ProductRow, presentProduct } from './present.js';
import { pageJson, productJson } from './presented.js';
import { type ProductFilter, listProducts } from './list.js';
import type { ShopSearch } from './search/page.js';
import { categoryIdsOf, findProduct } from './repository.js';
import { updateProduct } from './update.js';
import { productBatchRoute } from './batch-route.js';
import { listOrder, shopSearchOf } from './search/params.js';
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
  await productBatchRoute(fastify);
  readRoutes(app);
  updateRoute(app);
}

/** The list and one product: assembled from each product's kept JSON. */
function readRoutes(app: TypedApp): void {
  app.get('/products/', {
    config: { auth: 'fetch_hidden', scope: 'products:read_hidden', answerCache: 'products' },
    schema: {
      operationId: 'listProducts',
      params: ProjectParams,
      summary: 'List products',
      description:
        'Visible products, filtered (category, search, ids, q, price_min, price_max, in_stock, inventory_type, categories; all combine with AND), sorted by `order` (default date_desc, ties by id; relevance with q) and paged; `facets` adds counts per category, price range, stock and inventory type to meta. `fetch_hidden=true` adds hidden products and needs a key with products:read_hidden.',
      tags: ['products'],
      querystring: ProductListQuery,
      response: { 200: ProductList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const page = q.page ?? 1;
      const perpage = q.perpage ?? 20;
      const order = listOrder(q);
      const { products, total, facets } = await listProducts(
        request.reads,
        { ...productFilterOf(request.project.id, q), shop: shopSearchOf(q) },
        order,
        page,
        perpage,
        { records: app.records, project: request.project, indexes: app.matchIndexes },
        { cache: app.counts, project: request.project, pages: app.pages },
      );
      // Assembled from each product's kept JSON (presented.ts): sent as it is, past the
      // route's serialiser, with the CDN tags its ids make.
      const ids = products.length === 0 ? [] : idsOf(products);
      tagProducts(request, ids);
      request.answerRecords = ids;
      const meta = pageMeta(page, perpage, total);
      return sendJson(reply, pageJson(products, facets ? { ...meta, facets } : meta));
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
    handler: async (request, reply) => {
      const ref = parseRef(request.params.product, 'product');
      const found = await findProduct(request.reads, request.project.id, ref, request.query.fetch_hidden === true);
      if (!found) throw new ApiError(404, `product ${JSON.stringify(request.params.product)} not found`);
      // The row and its version were read in one statement: the kept JSON of that version,
      // or this row's, kept for the next reader of it (src/cache/record-cache.ts).
      const { row, categoryIds, version } = found;
      const [json] = await app.records.assemble(
        request.project,
        [{ id: row.id, version }],
        async () => new Map([[row.id, productJson(row, request.project.currency, categoryIds)]]),
      );
      tagProducts(request, [row.id]);
      request.answerRecords = [row.id];
      return sendJson(reply, json);
    },
  });
}

/** One product changed (POST): the batch's PATCH is batch-route.ts. */
function updateRoute(app: TypedApp): void {
  app.post('/products/:product', {
    config: {
      auth: 'key',
      scope: 'products:write',
      exists: async (request) => {
        const { product } = request.params as { product: string };
        return !!(await findProduct(request.reads, request.project.id, parseRef(product, 'product'), true));
      },
    },
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
      const check = ifMatchRow(request, reply, async (trx: Kysely<Database>, current: ProductRow) => {
        const categories = await categoryIdsOf(trx, request.project.id, [current.id]);
        return presentProduct(current, currency, categories.get(current.id) ?? []);
      });
      const updated = await updateProduct(app.storage, request.project.id, ref, request.body, check);
      if (!updated) throw new ApiError(404, `product ${JSON.stringify(request.params.product)} not found`);
      return presentProduct(updated.row, currency, updated.categoryIds);
    },
  });
}

/** JSON serialised here, sent as it is (Fastify serialises no string sent as JSON). */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** The ids of presented products, from their JSON (each starts with its id). */
function idsOf(products: readonly string[]): number[] {
  return products.map((json) => Number(json.slice(6, json.indexOf(',', 6))));
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

/**
 * The export's filters and order: the list's, shopper search's included, without paging or
 * counts (CONTRACT 14). Judged before the answer starts (400s), and by a download link's creation.
 */
export function productExportOf(
  projectId: string,
  q: Omit<ProductListQuery, 'page' | 'perpage' | 'facets' | 'price_ranges'>,
): { filter: ProductFilter & { shop?: ShopSearch }; order: OrderClause[] } {
  return { filter: { ...productFilterOf(projectId, q), shop: shopSearchOf(q) }, order: listOrder(q) };
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

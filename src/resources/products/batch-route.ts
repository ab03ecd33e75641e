import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BATCH_BODY_LIMIT } from '../../http/body-limits.js';
import { EmptyQuery, errorResponses, ProjectParams } from '../../http/schemas.js';
import { updateProducts } from './batch-update.js';
import { MAX_BATCH, ProductBatch, ProductBatchResult } from './schemas.js';

/** `PATCH …/products/`: many partial updates, all or nothing (batch-update.ts). */
export async function productBatchRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.patch('/products/', {
    config: { auth: 'key', scope: 'products:write' },
    bodyLimit: BATCH_BODY_LIMIT,
    schema: {
      operationId: 'updateProducts',
      summary: 'Update many products at once',
      description: `1 to ${MAX_BATCH} partial updates, each naming one product by id or handle (hidden ones too), with the fields of the single update and an optional if_match: all or nothing, in one write. Any failing item makes the whole request fail and nothing is written: 400 (a bad field, a product named twice), 404 (no such product) or 409 (if_match is not the product's current ETag), with \`details\` naming each failing item as products[<index>].<field>. An item that changes nothing is answered as it is, unwritten. The body may be up to 1 MiB.`,
      tags: ['products'],
      params: ProjectParams,
      querystring: EmptyQuery,
      body: ProductBatch,
      response: { 200: ProductBatchResult, ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
    },
    handler: async (request) => ({
      data: await updateProducts(app.storage, request.project, request.body.products),
    }),
  });
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import { parseRef } from '../../http/params.js';
import { EmptyQuery, errorResponses, ProjectParams } from '../../http/schemas.js';
import { categoryForest } from './repository.js';
import { CategoryListQuery, CategoryParams, CategoryTree } from './schemas.js';

export async function categoryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/categories/', {
    schema: {
      operationId: 'listCategories',
      params: ProjectParams,
      summary: 'List categories as a tree',
      description:
        'A bare array of root categories, each with its subcategories nested recursively, every level sorted by name.',
      tags: ['categories'],
      querystring: CategoryListQuery,
      response: { 200: CategoryTree, ...errorResponses(400, 404) },
    },
    handler: async (request) => {
      const { roots, byId } = await categoryForest(request.reads, request.project.id);
      const rootId = request.query['root-category'];
      if (rootId === undefined) return roots;
      const root = byId.get(rootId);
      if (!root) throw new ApiError(404, `category ${rootId} not found`);
      return [root];
    },
  });

  app.get('/categories/:category', {
    schema: {
      operationId: 'getCategory',
      summary: 'Get a category by id or handle, with its subtree',
      description:
        'All digits is an id, anything else a handle. The category with its subcategories nested to any depth, every level sorted by name (case-insensitively), then id. An unknown one is 404.',
      tags: ['categories'],
      params: CategoryParams,
      querystring: EmptyQuery,
      response: { 200: Type.Ref('Category'), ...errorResponses(400, 404) },
    },
    handler: async (request) => {
      const ref = parseRef(request.params.category, 'category');
      const { byId } = await categoryForest(request.reads, request.project.id);
      const node = 'id' in ref ? byId.get(ref.id) : [...byId.values()].find((c) => c.handle === ref.handle);
      if (!node) throw new ApiError(404, `category ${JSON.stringify(request.params.category)} not found`);
      return node;
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import { EmptyQuery, errorResponses, ProjectParams } from '../../http/schemas.js';
import { readPlans } from './repository.js';
import { PlanList, PlanListQuery, PlanParams } from './schemas.js';

export async function planRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/plans/', {
    // Any valid key of the project may see every status: no scope guards it (CONTRACT 4).
    config: { auth: 'fetch_inactive', scope: null },
    schema: {
      operationId: 'listPlans',
      params: ProjectParams,
      summary: 'List the plans that can be subscribed to',
      description:
        'Active plans only, sorted by id, each with its prices. `fetch_inactive=true` lists the plans of every status (deactivated, archived, deleted too) and needs any valid key of the project.',
      tags: ['plans'],
      querystring: PlanListQuery,
      response: { 200: PlanList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => ({
      data: await readPlans(request.reads, request.project.id, {
        onlyActive: request.query.fetch_inactive !== true,
      }),
    }),
  });

  app.get('/plans/:plan_id', {
    schema: {
      operationId: 'getPlan',
      summary: 'Get a plan in any status',
      description:
        'A single plan with its prices, whatever its status (active, deactivated, archived, deleted). An unknown id is 404.',
      tags: ['plans'],
      params: PlanParams,
      querystring: EmptyQuery,
      response: { 200: Type.Ref('Plan'), ...errorResponses(400, 404) },
    },
    handler: async (request) => {
      const id = request.params.plan_id;
      const [plan] = await readPlans(request.reads, request.project.id, { id });
      if (!plan) throw new ApiError(404, `plan ${id} not found`);
      return plan;
    },
  });
}

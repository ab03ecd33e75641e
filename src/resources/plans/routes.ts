import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import { EmptyQuery, errorResponses, ProjectParams } from '../../http/schemas.js';
import { findPlans } from './repository.js';
import { PlanList, PlanParams } from './schemas.js';

export async function planRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/plans/', {
    schema: {
      operationId: 'listPlans',
      params: ProjectParams,
      summary: 'List the plans that can be subscribed to',
      description: 'Active plans only, sorted by id, each with its prices.',
      tags: ['plans'],
      querystring: EmptyQuery,
      response: { 200: PlanList, ...errorResponses(400, 404) },
    },
    handler: async (request) => ({ data: await findPlans(app.storage.db, request.project.id, { onlyActive: true }) }),
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
      const [plan] = await findPlans(app.storage.db, request.project.id, { id });
      if (!plan) throw new ApiError(404, `plan ${id} not found`);
      return plan;
    },
  });
}

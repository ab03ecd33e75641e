import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import { EmptyQuery, errorResponses, pageMeta, ProjectParams } from '../../http/schemas.js';
import { presentUser } from './present.js';
import { getUser, listUsers } from './repository.js';
import { UserList, UserListQuery, UserParams } from './schemas.js';

export async function userRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/users/', {
    config: { auth: 'key', scope: 'users:read' },
    schema: {
      operationId: 'listUsers',
      params: ProjectParams,
      summary: 'List users, newest first',
      description: 'Sorted by created_at, then id, both descending. Each user carries its subscriptions.',
      tags: ['users'],
      querystring: UserListQuery,
      response: { 200: UserList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const page = request.query.page ?? 1;
      const perpage = request.query.perpage ?? 20;
      const { rows, total, subscriptions } = await listUsers(request.reads, request.project.id, page, perpage);
      return {
        data: rows.map((r) => presentUser(r, subscriptions.get(r.id) ?? [])),
        meta: pageMeta(page, perpage, total),
      };
    },
  });

  app.get('/users/:user_id', {
    config: { auth: 'key', scope: 'users:read' },
    schema: {
      operationId: 'getUser',
      summary: 'Get a user',
      description:
        'The user with its subscriptions, in stored order. An unknown id, or one of another project, is 404.',
      tags: ['users'],
      params: UserParams,
      querystring: EmptyQuery,
      response: { 200: Type.Ref('User'), ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const id = request.params.user_id;
      const found = await getUser(request.reads, request.project.id, id);
      if (!found) throw new ApiError(404, `user ${id} not found`);
      return presentUser(found.row, found.subscriptions);
    },
  });
}

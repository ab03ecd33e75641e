import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EmptyQuery, errorResponses, ProjectParams } from '../../http/schemas.js';
import { ProjectRecord, projectRecord } from './record.js';

// The project itself, as the first record of an import file holds it. A client that writes
// an import of some records (the console's bulk editor) must name the project with its own
// name and currency, or the import would rename it (CONTRACT 9): this is where it reads them.

export async function projectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/', {
    // Any valid key of the project; behind a key, so never kept by a shared cache.
    config: { auth: 'key', scope: null },
    schema: {
      operationId: 'getProject',
      summary: 'Get the project',
      description:
        'The project as an import file names it: id, name and currency. Needs any valid key of the project, no scope.',
      tags: ['projects'],
      params: ProjectParams,
      querystring: EmptyQuery,
      response: { 200: ProjectRecord, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => projectRecord(request.project),
  });
}

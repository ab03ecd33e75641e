import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.js';
import { errorResponses, pageMeta, ProjectParams } from '../../http/schemas.js';
import { createKeyIn } from '../../keys/repository.js';
import { deleteProject } from '../../writes/delete-project.js';
import { createProject } from '../../writes/project.js';
import { writeProject } from '../../writes/write-project.js';
import { ConfirmDelete, CreatedProject, ProjectCreate, ProjectList, ProjectListQuery } from './admin-schemas.js';
import { pageOfProjects } from './counts.js';
import { hasProject } from './repository.js';

// The admin API (docs/API.md, "Admin API"): a deployment's projects created, listed and
// deleted over HTTP with an admin key (src/plugins/admin-scope.ts), each call logged with
// that key's id. Creation and deletion are writes of the write unit (src/writes/).

const admin = { admin: true } as const;

export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/', {
    config: { ...admin, answerHoldsSecret: true },
    schema: {
      operationId: 'createProject',
      summary: 'Create a project',
      description:
        'Needs an admin key. The answer holds the project and its first API key, with every scope, shown this once. An id already in use is 409.',
      tags: ['admin'],
      body: ProjectCreate,
      response: { 201: CreatedProject, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
    },
    handler: async (request, reply) => {
      const p = request.body;
      const { value } = await writeProject(app.storage, p.id, async (ctx) => {
        const made = await createProject(ctx, p);
        if (!made) return undefined;
        return { made, key: await createKeyIn(ctx.db, p.id, 'first key') };
      });
      if (!value) throw new ApiError(409, `project ${JSON.stringify(p.id)} already exists`);
      request.log.info({ admin_key: request.adminKeyId, project: p.id }, 'admin: project created');
      reply.code(201);
      return {
        project: { ...p, created_at: value.made.created_at },
        key: { ...value.key.info, key: value.key.key },
      };
    },
  });

  app.get('/', {
    config: admin,
    schema: {
      operationId: 'listProjects',
      summary: 'List the projects',
      description: "Needs an admin key. The projects by id, paged, each with its records' counts.",
      tags: ['admin'],
      querystring: ProjectListQuery,
      response: { 200: ProjectList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { page = 1, perpage = 20 } = request.query;
      request.log.info({ admin_key: request.adminKeyId, page, perpage }, 'admin: projects listed');
      const { data, total } = await pageOfProjects(app.storage, app.counts, page, perpage);
      return { data, meta: pageMeta(page, perpage, total) };
    },
  });

  app.delete('/:project_id', {
    config: admin,
    schema: {
      operationId: 'deleteProject',
      summary: 'Delete a project and everything in it',
      description:
        'Needs an admin key and the header `Confirm-Delete: <project_id>` (missing: 400; naming another project: 412). Removes every record, key, webhook endpoint, import and change-feed entry of the project; its keys stop at once. A project later created with the same id starts empty.',
      tags: ['admin'],
      params: ProjectParams,
      headers: ConfirmDelete,
      response: { 204: { type: 'null', description: 'deleted' }, ...errorResponses(400, 401, 403, 404, 412) },
    },
    handler: async (request, reply) => {
      const id = request.params.project_id;
      const confirm = request.headers['confirm-delete'];
      if (confirm === undefined)
        throw new ApiError(400, `Confirm-Delete: ${id} is required to delete a project`, [
          { field: 'Confirm-Delete', message: 'required: the id of the project to delete' },
        ]);
      if (!(await hasProject(app.storage, id))) throw new ApiError(404, `project ${JSON.stringify(id)} not found`);
      if (confirm.trim() !== id)
        throw new ApiError(412, `Confirm-Delete names another project than ${id}`, [
          { field: 'Confirm-Delete', message: `must be ${id}` },
        ]);
      if (!(await deleteProject(app.storage, id))) throw new ApiError(404, `project ${JSON.stringify(id)} not found`);
      request.log.info({ admin_key: request.adminKeyId, project: id }, 'admin: project deleted');
      reply.code(204);
      return null;
    },
  });
}

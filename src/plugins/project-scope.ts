import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import { addRouteHook } from '../http/route-hooks.js';
import { checkKey } from '../keys/repository.js';
import { ProjectReader } from '../resources/projects/reader.js';
import type { Project } from '../resources/projects/repository.js';

// Every route under /v2/projects/:project_id passes through here first: the key is checked
// (before any other check, so a bad key always answers 401), then the project is loaded.
// The check is the route's own onRequest hook, so it runs after every app-wide onRequest
// hook (the address rate limit counts a request with a bad key too) and costs nothing on
// the other routes.

export const PROJECT_ROUTES = '/v2/projects/:project_id';

export default fp(
  async function projectScope(app: FastifyInstance) {
    app.decorateRequest('project', null as unknown as Project);
    app.decorateRequest('apiKeyId', null);
    app.decorateRequest('isPrivate', false);
    const projects = new ProjectReader(app.storage.db);

    const enterProject: onRequestAsyncHookHandler = async (request) => {
      const { project_id: projectId } = request.params as { project_id: string };
      const auth = request.routeOptions.config.auth;
      const query = request.query as Record<string, unknown>;
      if (auth === 'key' || (auth === 'fetch_hidden' && query.fetch_hidden === 'true')) {
        request.isPrivate = true;
        await requireKey(app, request, projectId);
      }
      const project = await projects.read(projectId);
      if (!project) throw new ApiError(404, `project ${JSON.stringify(projectId)} not found`);
      request.project = project;
    };

    app.addHook('onRoute', (route) => {
      // The 405 answers of src/plugins/method-not-allowed.ts name no project.
      if (!route.url.startsWith(`${PROJECT_ROUTES}/`) || route.config?.methodNotAllowed) return;
      addRouteHook(route, 'onRequest', enterProject);
    });
  },
  { name: 'project-scope', dependencies: ['storage'] },
);

async function requireKey(app: FastifyInstance, request: FastifyRequest, projectId: string): Promise<void> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(401, 'an API key is required: send Authorization: Bearer <key>');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new ApiError(401, 'the Authorization header must be "Bearer <key>"');
  const result = await checkKey(app.storage.db, projectId, match[1]);
  if (!result.ok) throw new ApiError(401, 'the API key is not valid for this project');
  request.apiKeyId = result.keyId ?? null;
}

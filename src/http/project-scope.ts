import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { checkKey } from '../keys/repository.js';
import { ProjectReader } from '../resources/projects/reader.js';
import type { Project } from '../resources/projects/repository.js';

// Every route under /v2/projects/:project_id passes through here first: the key is checked
// (before any other check, so a bad key always answers 401), then the project is loaded.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `key`: always needs an API key; `fetch_hidden`: needs one when fetch_hidden=true */
    auth?: 'key' | 'fetch_hidden';
  }
  interface FastifyRequest {
    project: Project;
    /** the id of the API key accepted for this request (rate limits and idempotency use it) */
    apiKeyId: number | null;
  }
}

export function registerProjectScope(app: FastifyInstance): void {
  app.decorateRequest('project', null as unknown as Project);
  app.decorateRequest('apiKeyId', null);
  const projects = new ProjectReader(app.storage.db);
  app.addHook('onRequest', async (request) => {
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
  });
}

async function requireKey(app: FastifyInstance, request: FastifyRequest, projectId: string): Promise<void> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(401, 'an API key is required: send Authorization: Bearer <key>');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new ApiError(401, 'the Authorization header must be "Bearer <key>"');
  const result = await checkKey(app.storage.db, projectId, match[1]);
  if (!result.ok) throw new ApiError(401, 'the API key is not valid for this project');
  request.apiKeyId = result.keyId ?? null;
}

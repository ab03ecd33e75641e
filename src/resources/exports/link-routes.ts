import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { LINK_SECONDS, createLink, linkQuery } from '../../export/download-links.js';
import { ProjectParams, errorResponses } from '../../http/schemas.js';
import { requireScope } from '../../keys/scopes.js';
import { productExportOf } from '../products/routes.js';
import { DownloadLink, EXPORT_FILES } from './schemas.js';

// Download links (docs/API.md, "Exports"): `POST …/exports/<file>/link` takes the export's own
// query, checked by its own schema and with its own scopes, and answers a path with a
// one-time token that the export's GET takes instead of the Authorization header. A browser
// follows it as an ordinary download, streamed to disk, never held in the tab.

export async function exportLinkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  for (const { file, query, scope } of EXPORT_FILES) {
    app.post(`/exports/${file}/link`, {
      config: { auth: 'key', scope, answerHoldsSecret: true },
      schema: {
        // createOrdersCsvLink …
        operationId: `create${file.replace(/^\w|\.\w/g, (c) => c.replace('.', '').toUpperCase())}Link`,
        summary: `A one-time download link of ${file}`,
        description: `The same query as \`GET …/exports/${file}\`, checked the same way (a bad filter is 400 here, a missing scope 403); the answer's path, with its token, downloads that export once, within ${LINK_SECONDS} seconds, without the Authorization header. The key must still work when the link is followed.`,
        tags: ['exports'],
        params: ProjectParams,
        querystring: query,
        response: { 201: DownloadLink, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
      handler: async (request, reply) => {
        if ((request.query as { fetch_hidden?: boolean }).fetch_hidden === true)
          requireScope(request, 'products:read_hidden');
        const projectId = request.project.id;
        // What the schema cannot say (ids past 2^53-1, order clauses), judged now as the export judges it.
        if (file === 'products.csv') {
          productExportOf(projectId, request.query);
        }
        const bound = linkQuery(request.url);
        const { token, expiresAt } = await createLink(app.storage, {
          projectId,
          keyId: request.apiKeyId!,
          file,
          query: bound,
          now: app.keys.now(),
        });
        const search = new URLSearchParams(bound);
        search.append('download_token', token);
        const path = `/v2/projects/${encodeURIComponent(projectId)}/exports/${file}?${search.toString()}`;
        return reply.code(201).send({ path, expires_at: expiresAt });
      },
    });
  }
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { decodeCursor } from '../../changes/cursor.js';
import { CHANGE_TYPES } from '../../changes/entry.js';
import { readChanges } from '../../changes/read.js';
import { ApiError, invalid } from '../../errors.js';
import { ProjectParams, errorResponses } from '../../http/schemas.js';
import type { Scope } from '../../keys/scopes.js';
import type { ResourceDescriptor } from '../descriptor.js';
import { RESOURCES, resourceOfType } from '../registry.js';
import { ChangeList, ChangesQuery, DEFAULT_LIMIT, PUBLIC_TYPES } from './schemas.js';

// The change feed. Public for the public types; a key is needed, with the scope of each,
// when the query asks for hidden products or for users and orders: project-scope.ts reads
// those scopes off the raw query (askedScopes), so that 401 and 403 come before any other
// check, as on every protected route.

const HIDDEN_SCOPE: Scope = 'products:read_hidden';
const TYPE_SCOPES = RESOURCES.filter((r) => r.readScope).map((r) => [r.type, r.readScope!] as const);

function askedScopes(query: Record<string, unknown>): Scope[] {
  const scopes: Scope[] = [];
  if (query.fetch_hidden === 'true') scopes.push(HIDDEN_SCOPE);
  if (typeof query.types === 'string') {
    const names = new Set(query.types.split(','));
    for (const [type, scope] of TYPE_SCOPES) if (names.has(type)) scopes.push(scope);
  }
  return scopes;
}

const TYPES_RULE = `must be a comma-separated list of ${CHANGE_TYPES.join(', ')}`;

function parseTypes(value: string | undefined): ResourceDescriptor[] {
  if (value === undefined) return PUBLIC_TYPES.map((t) => resourceOfType(t)!);
  const types = new Set<ResourceDescriptor>();
  for (const name of value.split(',')) {
    const resource = resourceOfType(name);
    if (!resource) throw invalid('types', TYPES_RULE);
    types.add(resource);
  }
  return [...types];
}

export async function changeRoutes(
  fastify: FastifyInstance,
  options: { /** FOR TESTS ONLY (src/changes/ordering.ts) */ brokenOrder?: boolean },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/changes/', {
    config: {
      auth: 'asked',
      scope: [HIDDEN_SCOPE, ...TYPE_SCOPES.map(([, scope]) => scope)],
      askedScopes,
      // Kept per data_version (answer-cache.ts): a poll with nothing new is answered from
      // memory, and its ETag makes it a 304.
      answerCache: 'changes',
    },
    schema: {
      operationId: 'listChanges',
      summary: 'Follow every change: records written, hidden and deleted, in commit order',
      description:
        'Start without `since`, apply every entry (upsert: store the record; delete: drop it), ask again with `next` while `has_more` is true, then poll with `next`. The records kept then equal what the lists show, whatever writes happen in between. A `since` older than the deletions kept (CHANGES_RETENTION_DAYS, default 30) is 410 gone: start again without it.',
      tags: ['changes'],
      params: ProjectParams,
      querystring: ChangesQuery,
      response: { 200: ChangeList, ...errorResponses(400, 401, 404, 410) },
    },
    // A page holds up to 1,000 records of five shapes: JSON.stringify writes it in a fraction
    // of the time a schema serialiser takes to pick each record's shape. The presenters make
    // exactly the documented fields (test/openapi checks every answer against the document).
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request) => {
      const q = request.query;
      const cursor = q.since === undefined ? { seq: 0 } : decodeCursor(q.since);
      // A well-formed value that is no cursor of ours (cut short, edited, of another
      // deployment) is answered as a cursor the feed no longer knows: the reader's remedy is
      // the same, start again without it (docs/API.md, "Decisions").
      if (!cursor) throw new ApiError(410, 'this is not a cursor of this feed: start again without since');
      // The primary's handle, not the request's: a replica may cancel a long read for a
      // recovery conflict, and its statements would then finish on another database.
      return readChanges(app.storage.reads, {
        projectId: request.project.id,
        cursor,
        limit: q.limit ?? DEFAULT_LIMIT,
        types: parseTypes(q.types),
        includeHidden: q.fetch_hidden === true,
        brokenOrder: options.brokenOrder,
      });
    },
  });
}

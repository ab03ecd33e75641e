import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Static, TObject, TProperties } from 'typebox';
import type { TypedApp } from '../../http/typed-app.js';
import { DEFAULT_EXPORT_MAX_SECONDS } from '../../config-streams.js';
import { csvFormatOf, productsCsv, ordersCsv } from '../../export/csv.js';
import type { Separator } from '../../export/csv-record.js';
import { exportProject } from '../../export/export.js';
import { type Emit, snapshotStream } from '../../export/snapshot-stream.js';
import { ProjectParams, errorResponses } from '../../http/schemas.js';
import { requireScope } from '../../keys/scopes.js';
import { orderFilterOf } from '../orders/routes.js';
import { productExportOf } from '../products/routes.js';
import { findCandidates } from '../products/search/list.js';
import { type ExportFile, ORDERS_CSV, PRODUCTS_CSV, PROJECT_NDJSON, fileAnswer, withDownloadToken } from './schemas.js';

// Exports (docs/API.md, "Exports"): every match of a list as CSV, or the whole project in the
// import format as NDJSON, streamed from one snapshot (src/export/snapshot-stream.ts) as fast
// as the client reads, never held whole in memory. Each answer is an attachment. A browser
// saves one with a one-time download link (link-routes.ts) instead of a key.

const tags = ['exports'];

function attachment(reply: FastifyReply, type: string, filename: string, body: Readable): FastifyReply {
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

type Produce = Parameters<typeof snapshotStream>[1];

/** The request's export, streamed from its own read handle (a replica that has reached the version it must see). */
function streamed(request: FastifyRequest, maxMs: number, produce: Produce): Readable {
  return snapshotStream(request.reads, produce, {
    maxMs,
    onLimit: (ms) => request.log.warn({ ms }, 'export ended at EXPORT_MAX_SECONDS: the client read too slowly'),
    onLost: (error) => request.log.warn({ err: error }, 'export cut off: its read replica lost the snapshot'),
  });
}

type CsvRows = (db: Parameters<Produce>[0], emit: Emit, separator: Separator) => Promise<void>;

/**
 * A CSV export's GET: the rows its request asks for, streamed after the format's start (a
 * byte order mark unless bom=false).
 */
function csvGet<T extends TProperties>(
  app: TypedApp,
  maxMs: number,
  file: ExportFile<T>,
  rowsOf: (request: FastifyRequest, query: Static<TObject<T>>) => Promise<CsvRows>,
): void {
  const get = exportGet(file);
  app.get(get.path, {
    ...get.route,
    handler: async (request, reply) => {
      // The route's schema has validated the query: T's fields and the CSV format's.
      const query = request.query as Static<TObject<T>> & Parameters<typeof csvFormatOf>[0];
      const rows = await rowsOf(request, query);
      const { start, separator } = csvFormatOf(query);
      const body = streamed(request, maxMs, async (db, emit) => {
        if (start) await emit(start);
        await rows(db, emit, separator);
      });
      const type = `${file.answer.mediaType}; charset=utf-8`;
      return attachment(reply, type, `${request.project.id}-${file.file}`, body);
    },
  });
}

/**
 * An export's GET as its declaration (EXPORT_FILES, schemas.ts) gives it, like its download
 * link: its path, what its key needs, its words, its query with a download token, its file.
 */
function exportGet<T extends TProperties>(exported: ExportFile<T>) {
  const { file, query, scope, operationId, summary, description, answer } = exported;
  return {
    path: `/exports/${file}`,
    route: {
      config: { auth: 'key', scope, download: file } as const,
      schema: {
        operationId,
        summary,
        description,
        tags,
        params: ProjectParams,
        querystring: withDownloadToken(query),
        response: { 200: fileAnswer(answer), ...errorResponses(400, 401, 403, 404) },
      },
    },
  };
}

export async function exportRoutes(fastify: FastifyInstance, options: { maxSeconds?: number }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const maxMs = (options.maxSeconds ?? DEFAULT_EXPORT_MAX_SECONDS) * 1000;

  csvGet(app, maxMs, PRODUCTS_CSV, async (request, q) => {
    if (q.fetch_hidden === true) requireScope(request, 'products:read_hidden');
    const { filter, order } = productExportOf(request.project.id, q);
    if (filter.shop) await findCandidates(request.reads, request.project, filter.shop);
    const { currency } = request.project;
    return (db, emit, separator) => productsCsv(db, filter, order, currency, emit, undefined, separator);
  });

  csvGet(app, maxMs, ORDERS_CSV, async (request, q) => {
    const filter = orderFilterOf(request.project.id, q);
    return (db, emit, separator) => ordersCsv(db, filter, emit, undefined, separator);
  });

  const project = exportGet(PROJECT_NDJSON);
  app.get(project.path, {
    ...project.route,
    handler: async (request, reply) => {
      const projectId = request.project.id;
      const body = streamed(request, maxMs, (db, emit) => exportProject(db, projectId, emit, 'ndjson'));
      return attachment(reply, PROJECT_NDJSON.answer.mediaType, `${projectId}.ndjson`, body);
    },
  });
}

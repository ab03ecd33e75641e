import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DEFAULT_EXPORT_MAX_SECONDS } from '../../config-streams.js';
import { csvFormatOf, productsCsv, ordersCsv } from '../../export/csv.js';
import { exportProject } from '../../export/export.js';
import { type Emit, snapshotStream } from '../../export/snapshot-stream.js';
import { EmptyQuery, ProjectParams, errorResponses } from '../../http/schemas.js';
import { requireScope } from '../../keys/scopes.js';
import { orderFilterOf } from '../orders/routes.js';
import { parseOrder, productFilterOf } from '../products/routes.js';
import {
  ORDERS_CSV_EXAMPLE,
  OrdersExportQuery,
  PRODUCTS_CSV_EXAMPLE,
  PROJECT_NDJSON_EXAMPLE,
  READ_SCOPES,
  ProductsExportQuery,
  fileAnswer,
  withDownloadToken,
} from './schemas.js';

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

export async function exportRoutes(fastify: FastifyInstance, options: { maxSeconds?: number }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const maxMs = (options.maxSeconds ?? DEFAULT_EXPORT_MAX_SECONDS) * 1000;
  // The request's own read handle: a replica that has reached the version it must see.
  const stream = (
    request: FastifyRequest,
    produce: (db: Parameters<Parameters<typeof snapshotStream>[1]>[0], emit: Emit) => Promise<void>,
  ) =>
    snapshotStream(request.reads, produce, {
      maxMs,
      onLimit: (ms) => request.log.warn({ ms }, 'export ended at EXPORT_MAX_SECONDS: the client read too slowly'),
      onLost: (error) => request.log.warn({ err: error }, 'export cut off: its read replica lost the snapshot'),
    });

  app.get('/exports/products.csv', {
    config: { auth: 'key', scope: null, download: 'products.csv' },
    schema: {
      operationId: 'exportProducts',
      summary: 'Export products as CSV',
      description:
        "Every product the list with the same filters and `order` holds, no paging, as CSV (RFC 4180, UTF-8 after a byte order mark unless `bom=false`, `,` or with `delimiter=semicolon` `;` between cells, a header row; the columns in docs/API.md). Any key of the project; `fetch_hidden=true` needs products:read_hidden. A cell beginning with =, +, -, @, tab or carriage return is written with a ' in front (CSV injection).",
      tags,
      params: ProjectParams,
      querystring: withDownloadToken(ProductsExportQuery),
      response: {
        200: fileAnswer('text/csv', 'the products, one row each', PRODUCTS_CSV_EXAMPLE),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request, reply) => {
      const q = request.query;
      if (q.fetch_hidden === true) requireScope(request, 'products:read_hidden');
      const filter = productFilterOf(request.project.id, q);
      const order = parseOrder(q.order);
      const { currency } = request.project;
      const { start, separator } = csvFormatOf(q);
      const body = stream(request, async (db, emit) => {
        if (start) await emit(start);
        await productsCsv(db, filter, order, currency, emit, undefined, separator);
      });
      return attachment(reply, 'text/csv; charset=utf-8', `${request.project.id}-products.csv`, body);
    },
  });

  app.get('/exports/orders.csv', {
    config: { auth: 'key', scope: 'orders:read', download: 'orders.csv' },
    schema: {
      operationId: 'exportOrders',
      summary: 'Export orders as CSV',
      description:
        'Every order the list with the same filters holds, newest first, no paging, as CSV (UTF-8 after a byte order mark unless `bom=false`; `delimiter=semicolon` for `;`): one row per order, `items` as `2 × Linen shirt; 1 × Wool scarf`, times in ISO 8601 UTC.',
      tags,
      params: ProjectParams,
      querystring: withDownloadToken(OrdersExportQuery),
      response: {
        200: fileAnswer('text/csv', 'the orders, one row each', ORDERS_CSV_EXAMPLE),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request, reply) => {
      const filter = orderFilterOf(request.project.id, request.query);
      const { start, separator } = csvFormatOf(request.query);
      const body = stream(request, async (db, emit) => {
        if (start) await emit(start);
        await ordersCsv(db, filter, emit, undefined, separator);
      });
      return attachment(reply, 'text/csv; charset=utf-8', `${request.project.id}-orders.csv`, body);
    },
  });

  app.get('/exports/project.ndjson', {
    config: { auth: 'key', scope: READ_SCOPES, download: 'project.ndjson' },
    schema: {
      operationId: 'exportProject',
      summary: 'Export the whole project as NDJSON',
      description:
        'The project and every record of it in the import format, one record a line (the same bytes as `storefront export --format ndjson`), hidden products and plans of every status included: importable again as it is. Needs every read scope (users:read, orders:read, products:read_hidden).',
      tags,
      params: ProjectParams,
      querystring: withDownloadToken(EmptyQuery),
      response: {
        200: fileAnswer('application/x-ndjson', 'the project, then its records, one a line', PROJECT_NDJSON_EXAMPLE),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request, reply) => {
      const projectId = request.project.id;
      const body = stream(request, (db, emit) => exportProject(db, projectId, emit, 'ndjson'));
      return attachment(reply, 'application/x-ndjson', `${projectId}.ndjson`, body);
    },
  });
}

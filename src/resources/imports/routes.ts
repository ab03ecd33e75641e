import { hostname } from 'node:os';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, onSendHookHandler } from 'fastify';
import { ApiError } from '../../errors.js';
import { boundByProgress } from '../../http/progress-bounded-bodies.js';
import { EmptyQuery, ProjectParams, errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { type ImportFormat, type Spooled, checkDeclaredLength, removeSpool, spool } from '../../imports/spool.js';
import { headerProblems } from '../products/csv-columns.js';
import { readCsvHeader } from '../../import/csv.js';
import { isFinished } from '../../imports/store.js';
import { presentJob } from '../../imports/present.js';
import {
  ImportAccepted,
  ImportBody,
  ImportFinished,
  ImportList,
  ImportParams,
  ImportQuery,
  ImportRef,
  MAX_WAIT_SECONDS,
  PreferHeaders,
} from './schemas.js';

// Imports over HTTP, for a key with imports:write (docs/API.md, "Imports"). The upload is
// streamed to a spool file by this scope's own body parsers (never held in memory, refused
// past IMPORT_MAX_BYTES), then queued as a job (src/imports/): a slow upload never holds a
// write lock, since the import starts only once the whole file is in.

const write = { auth: 'key', scope: 'imports:write' } as const;
const tags = ['imports'];
/** What the routes of one import share: its id in the path, and no query. */
const ofOneImport = { tags, params: ImportParams, querystring: EmptyQuery };
const MEDIA_TYPES = ['application/json', 'application/x-ndjson', 'text/csv'];
/** beyond a `Prefer: wait`, time to write the answer before the socket counts as idle */
const WAIT_SLACK_MS = 5_000;

/** The spooled upload of a request, until a job takes it (or the answer goes out without one). */
const uploads = new WeakMap<FastifyRequest, Spooled & { taken: boolean }>();

function unsupported(): ApiError {
  return new ApiError(
    415,
    'an import is sent as Content-Type: application/json (a JSON document), application/x-ndjson (one record a line) or text/csv (products)',
    [{ field: 'Content-Type', message: `must be ${MEDIA_TYPES.join(', ')}` }],
  );
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

function formatOf(type: string): ImportFormat {
  if (/^\s*application\/x-ndjson/i.test(type)) return 'ndjson';
  return /^\s*text\/csv/i.test(type) ? 'csv' : 'json';
}

/** A CSV's header row, checked before the job is queued: a wrong column is a 400 at once. */
async function checkCsvHeader(path: string, replace: boolean): Promise<void> {
  const header = await readCsvHeader(path);
  const problems = header
    ? headerProblems(
        header.map((h) => h.trim()),
        replace,
      )
    : [];
  if (problems.length === 0) return;
  const names = problems.map((p) => p.field).join(', ');
  throw new ApiError(400, `the CSV's header row is not a products header: ${names}`, problems);
}

/** `Prefer: wait=<seconds>` (RFC 7240), capped; undefined when not asked. */
export function preferredWait(header: string | undefined): number | undefined {
  const match = /(?:^|[,;\s])wait\s*=\s*"?(\d{1,9})"?/i.exec(header ?? '');
  return match ? Math.min(Number(match[1]), MAX_WAIT_SECONDS) : undefined;
}

function locationOf(projectId: string, id: number): string {
  return `/v2/projects/${projectId}/imports/${id}`;
}

export async function importRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await uploadRoute(app);
  jobRoutes(app);
}

/** The upload, in a scope of its own: its body parsers stream to disk. */
async function uploadRoute(app: TypedApp): Promise<void> {
  const host = hostname();

  await app.register(async (scope) => {
    spoolingParsers(scope);
    const upload = scope.withTypeProvider<TypeBoxTypeProvider>();
    upload.post('/imports/', {
      config: write,
      schema: {
        operationId: 'createImport',
        summary: 'Upload an import',
        description: `The file of the import format (a JSON document or NDJSON lines), or products as CSV, is received in full and spooled to disk, then imported as a job: all or nothing, one import of a project at a time, in order. The answer is 202 with the Import and its Location; with \`Prefer: wait=<seconds>\` (at most ${MAX_WAIT_SECONDS}) it is 200 with the finished Import if it ends in time. \`dry_run=true\` checks everything and writes nothing. The upload may take as long as it needs while it keeps arriving: REQUEST_TIMEOUT_MS does not cut it, but one that sends nothing for UPLOAD_IDLE_TIMEOUT_MS (default 30 s), or fewer than UPLOAD_MIN_BYTES_PER_SECOND (default 500) bytes a second over 10 s, is 408 and nothing is queued. A body over IMPORT_MAX_BYTES (default 512 MiB) is 413 at once; another media type is 415; a CSV whose header names unknown columns, or has neither id nor handle (with \`mode=replace\`: lacks handle, name or price), is 400 at once. A CSV changes only the columns it has (\`mode=replace\`: whole records, as JSON and NDJSON do); a record equal to the stored one is not written. The Import reports \`changes\` and \`warnings\` (values a spreadsheet seems to have damaged). An Idempotency-Key makes a retried upload answer the first Import.`,
        tags,
        params: ProjectParams,
        querystring: ImportQuery,
        headers: PreferHeaders,
        body: ImportBody,
        response: {
          200: ImportFinished,
          202: ImportAccepted,
          ...errorResponses(400, 401, 403, 404, 408, 409, 413, 415),
        },
      },
      onSend: locationOnReplay,
      onResponse: removeUnusedSpool,
      handler: async (request, reply) => {
        const spooled = uploads.get(request);
        if (!spooled) throw unsupported();
        const projectId = request.project.id;
        const runner = app.imports.runner;
        const job = await runner.queue({
          projectId,
          format: (request.body as { format: ImportFormat }).format,
          bytes: spooled.bytes,
          dryRun: request.query.dry_run === true,
          mode: request.query.mode ?? 'merge',
          spoolHost: host,
          spoolPath: spooled.path,
          now: Math.floor(Date.now() / 1000),
        });
        spooled.taken = true;
        const id = Number(job.id);
        reply.header('location', locationOf(projectId, id));
        const wait = preferredWait(request.headers.prefer);
        // The connection is silent while the answer waits: the server's idle limit for a
        // socket (connectionTimeout) would otherwise cut a wait longer than it, answerless.
        // (An injected request's socket has no timer.)
        const socket = request.raw.socket as { setTimeout?: (ms: number) => unknown } | undefined;
        if (wait && typeof socket?.setTimeout === 'function') socket.setTimeout(wait * 1000 + WAIT_SLACK_MS);
        const row = wait ? ((await runner.waitFor(projectId, id, wait * 1000)) ?? job) : job;
        if (wait !== undefined && isFinished(row.status)) {
          reply.header('preference-applied', `wait=${wait}`);
          reply.code(200);
        } else {
          reply.code(202);
        }
        return presentJob(row, runner.live(id));
      },
    });
  });
}

/** The jobs: listed, one read, one canceled. */
function jobRoutes(app: TypedApp): void {
  app.get('/imports/', {
    config: write,
    schema: {
      operationId: 'listImports',
      summary: "List the project's imports",
      description: 'The latest 100 imports, newest first.',
      tags,
      params: ProjectParams,
      querystring: EmptyQuery,
      response: { 200: ImportList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const rows = await app.imports.runner.list(request.project.id);
      return { data: rows.map((row) => presentJob(row, app.imports.runner.live(Number(row.id)))) };
    },
  });

  app.get('/imports/:import_id', {
    config: write,
    schema: {
      operationId: 'getImport',
      summary: 'Get an import',
      description: 'Its status and progress; once it ended, its counts or its errors by place.',
      ...ofOneImport,
      response: { 200: ImportRef, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = request.params.import_id;
      const row = await app.imports.runner.find(request.project.id, id);
      if (!row) throw new ApiError(404, `import ${id} not found`);
      return presentJob(row, app.imports.runner.live(id));
    },
  });

  app.post('/imports/:import_id/cancel', {
    config: write,
    schema: {
      operationId: 'cancelImport',
      summary: 'Cancel an import',
      description:
        'A queued or running import stops and nothing of it is written: 200 with the canceled Import (202 while the process running it has not yet stopped it). An import that already ended is 409. Takes no body.',
      ...ofOneImport,
      response: {
        200: ImportRef,
        202: { $ref: 'Import', description: 'Accepted: the process running it stops it shortly' },
        ...errorResponses(400, 401, 403, 404, 409, 413, 415),
      },
    },
    handler: async (request, reply: FastifyReply) => {
      const id = request.params.import_id;
      const result = await app.imports.runner.cancel(request.project.id, id);
      if (!result) throw new ApiError(404, `import ${id} not found`);
      if (result.outcome === 'finished')
        throw new ApiError(
          409,
          `import ${id} has already ${result.row.status}; only a queued or running import can be canceled`,
          [{ field: 'status', message: `is ${result.row.status}` }],
        );
      reply.code(result.outcome === 'stopping' ? 202 : 200);
      return presentJob(result.row, app.imports.runner.live(id));
    },
  });
}

/** The upload scope's body parsers: the file streamed to a spool file, a CSV's header checked. */
function spoolingParsers(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(MEDIA_TYPES, (request, payload, done) => {
    const type = request.headers['content-type'] ?? '';
    const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return done(unsupported(), undefined);
    const format = formatOf(type);
    const { maxBytes, spoolDir, idleTimeoutMs, minBytesPerSecond, rateWindowMs } = scope.imports;
    try {
      checkDeclaredLength(request.headers['content-length'], maxBytes);
    } catch (e) {
      return done(e as Error, undefined);
    }
    // However long the file takes to arrive, as long as it keeps arriving.
    const release = boundByProgress(request.raw);
    const received = spool(payload, format, {
      dir: spoolDir,
      maxBytes,
      idleMs: idleTimeoutMs,
      minBytesPerSecond,
      rateWindowMs,
    });
    received.then(release, release);
    const query = request.query as Record<string, unknown>;
    const spooled = received.then(async (spooled) => {
      if (format !== 'csv') return spooled;
      try {
        await checkCsvHeader(spooled.path, query.mode === 'replace');
      } catch (e) {
        await removeSpool(spooled.path);
        throw e;
      }
      return spooled;
    });
    spooled.then((spooled) => {
      uploads.set(request, { ...spooled, taken: false });
      // What the Idempotency-Key compares (src/plugins/idempotency.ts): the same bytes
      // sent again, as the same kind of import, are the same request.
      const { dry_run, mode } = query;
      done(null, { format, bytes: spooled.bytes, sha256: spooled.sha256, dry_run: dry_run === 'true', mode });
    }, done);
  });
  scope.addContentTypeParser('*', (_request, _payload, done) => done(unsupported(), undefined));
}

/** A replayed answer (Idempotency-Key) was stored without its Location: it gets it again. */
const locationOnReplay: onSendHookHandler<unknown> = (request, reply, payload, done) => {
  if (reply.getHeader('idempotent-replayed') && !reply.hasHeader('location') && typeof payload === 'string') {
    try {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof id === 'number') reply.header('location', locationOf(request.project.id, id));
    } catch {
      // not an Import: nothing to add
    }
  }
  done(null, payload);
};

/** An upload no job took (refused, or the answer went out without one): its spool file goes. */
const removeUnusedSpool: onResponseHookHandler = (request, _reply, done) => {
  const spooled = uploads.get(request);
  if (!spooled || spooled.taken) return done();
  removeSpool(spooled.path).then(
    () => done(),
    (err: unknown) => {
      request.log.warn({ err }, 'could not remove an unused import spool file');
      done();
    },
  );
};

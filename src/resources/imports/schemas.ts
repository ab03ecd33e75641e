import { Type } from 'typebox';
import { NullableTimestamp, PathId, ProjectId, Timestamp } from '../../http/schemas.js';
import { LISTED_JOBS } from '../../imports/store.js';
import { MAX_PROBLEMS } from '../../import/problems.js';
import { MAX_WARNINGS } from '../../import/report.js';
import { RESOURCES } from '../registry.js';

// The HTTP import API (docs/API.md, "Imports"): the Import job as every route answers it, and
// the upload's media types as the OpenAPI document describes them.

export const IMPORT_MODES = ['merge', 'replace'] as const;
export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
/** The longest `Prefer: wait=<seconds>` honoured. */
export const MAX_WAIT_SECONDS = 60;

const Count = Type.Integer({ minimum: 0 });
const KindCounts = Type.Object(
  { upserted: Count, deleted: Count },
  { description: 'records written (created or replaced) and deleted (cascades included)' },
);

const KindChanges = Type.Object(
  {
    created: Count,
    updated: Count,
    unchanged: Type.Integer({
      minimum: 0,
      description: 'records equal to the stored ones: not written, no change-feed entry, no event',
    }),
    deleted: Count,
    fields: Type.Object(
      {},
      {
        additionalProperties: Count,
        description: 'by field: how many updated records change it',
        examples: [{ price: 3 }],
      },
    ),
  },
  { description: "records created, updated (updated_at: the import's time), left unchanged and deleted" },
);

export const Import = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'the import id (its Location: …/imports/<id>)' }),
    status: Type.Enum(IMPORT_STATUSES, {
      description:
        'queued (waiting for an earlier import of the project), running, then succeeded, failed (nothing was written) or canceled (nothing was written)',
    }),
    dry_run: Type.Boolean({ description: 'true: everything was checked and nothing written' }),
    format: Type.Enum(['json', 'ndjson', 'csv'], {
      description: 'the upload: a JSON document, NDJSON lines or a products CSV',
    }),
    bytes: Count,
    records_read: Type.Integer({ minimum: 0, description: 'records read so far (the project line included)' }),
    progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'the share of the file read so far, 1 when it succeeded',
    }),
    counts: Type.Object(Object.fromEntries(RESOURCES.map((r) => [r.kind, KindCounts])), {
      description: 'by record kind; all 0 until the import succeeded (a dry run: what it would have done)',
    }),
    errors: Type.Array(
      Type.Object({
        place: Type.String({
          description:
            '`products[12].price` (JSON), `line 40` (NDJSON), `row 7` (CSV; the header is row 1), `body` or `import`',
        }),
        message: Type.String(),
      }),
      { maxItems: MAX_PROBLEMS, description: `the first ${MAX_PROBLEMS} problems, in file order` },
    ),
    errors_total: Type.Integer({ minimum: 0, description: 'every problem found, listed or not' }),
    changes: Type.Object(Object.fromEntries(RESOURCES.map((r) => [r.kind, KindChanges])), {
      description:
        'by record kind: what the import changed (a dry run: would change); all 0 until it succeeded. A record equal to the stored one is not written',
    }),
    warnings: Type.Array(
      Type.Object({
        place: Type.String({ description: 'where the record is in the file, as for errors' }),
        field: Type.String({ examples: ['sku'] }),
        message: Type.String({
          examples: ['lost its leading zeros ("00123" became "123"): a spreadsheet read the text as a number'],
        }),
      }),
      {
        maxItems: MAX_WARNINGS,
        description: `values that look damaged by a spreadsheet, compared with the stored ones (leading zeros lost, scientific notation, digits lost, a date, thousands separators, text read as Latin-1): the first ${MAX_WARNINGS}. Warnings never stop an import`,
      },
    ),
    warnings_total: Type.Integer({ minimum: 0, description: 'every warning, listed or not' }),
    cursor_before: Type.Union([Type.String(), Type.Null()], {
      description:
        'the change-feed cursor from just before the import wrote: GET …/changes/?since=<cursor> gives what it changed; null until it started writing',
    }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
  },
  { $id: 'Import', description: 'An import job: an uploaded file, checked and then written all or nothing.' },
);

export const ImportList = Type.Object({
  data: Type.Array(Type.Ref('Import'), { description: `the latest ${LISTED_JOBS} imports, newest first` }),
});

export const ImportParams = Type.Object({ project_id: ProjectId, import_id: PathId('import') });

export const ImportQuery = Type.Object(
  {
    dry_run: Type.Optional(Type.Boolean({ description: 'true: check everything, write nothing', examples: [false] })),
    mode: Type.Optional(
      Type.Enum(IMPORT_MODES, {
        description:
          'a CSV: `merge` (the default) changes only the columns the file has; `replace` replaces whole records, fields left out taking their defaults (as JSON and NDJSON always do)',
        examples: ['merge'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreferHeaders = Type.Object({
  prefer: Type.Optional(
    Type.String({
      description: `wait=<seconds> (RFC 7240, at most ${MAX_WAIT_SECONDS}): answer 200 with the finished import if it ends in time, else 202`,
      examples: ['wait=30'],
    }),
  ),
});

const LOCATION = {
  Location: {
    type: 'string',
    description: 'the import: GET it to follow its progress',
    examples: ['/v2/projects/demo/imports/7'],
  },
};

/** The upload: the body is read as a file (streamed to disk), so it is described rather than validated here. */
export const ImportBody = {
  content: {
    'application/json': {
      schema: {
        type: 'object',
        // The demo project as it is: sending the example changes nothing.
        examples: [{ project: { id: 'demo', name: 'Demo shop', currency: 'USD' } }],
        description:
          'a JSON document: { "project": { "id", "name", "currency" }, "categories": […], "products": […], "plans": […], "users": […], "orders": […] } (docs/API.md, "Import format"); its project must be the path\'s',
      },
    },
    'application/x-ndjson': {
      schema: {
        examples: [
          '{"type":"project","id":"demo","name":"Demo shop","currency":"USD"}\n{"type":"product","id":1001,"handle":"linen-shirt","name":"Linen shirt","price":4900}\n',
        ],
        description:
          'NDJSON: one JSON object a line, each with its "type"; the first line is the project ({"type":"project","id",…}), which must be the path\'s',
      },
    },
    'text/csv': {
      schema: {
        examples: ['handle,name,price\r\nlinen-shirt,Linen shirt,4900\r\n'],
        description:
          'products as CSV (RFC 4180, UTF-8 with or without a byte order mark, `,` or `;` between cells): a header row naming product columns (`id` or `handle` required: it finds the product; docs/API.md, "CSV import"), then one product a row, changing only the columns given; they go into the path\'s project',
      },
    },
  },
};

export const ImportAccepted = {
  $ref: 'Import',
  description: 'Accepted: the import is queued or running',
  headers: LOCATION,
};
export const ImportFinished = {
  $ref: 'Import',
  description: 'the import ended within Prefer: wait (succeeded, or failed with its errors)',
  headers: {
    ...LOCATION,
    'Preference-Applied': { type: 'string', description: 'the wait honoured', examples: ['wait=30'] },
  },
};
export const ImportRef = { $ref: 'Import' };

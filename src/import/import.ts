import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { changesRetentionDays } from '../config.js';
import type { Database } from '../db/schema.js';
import { refreshStatistics } from '../db/statistics.js';
import { type Kind, RESOURCES, RESOURCE_TABLES, resourceOfType } from '../resources/registry.js';
import { describeJsonSyntaxError, jsonSyntaxError } from './json-syntax.js';
import { ImportSession, type PlaceFormat } from './session.js';

// `storefront import <file>`: a JSON document or an NDJSON stream, all or nothing. The whole
// import is one transaction; any invalid record rolls it back and every problem is listed
// by its place in the file.

export interface ImportSummary {
  projectId: string;
  /** records written (created or replaced), by kind */
  counts: Record<Kind, number>;
  /** records deleted by the file's deletions, by kind (a category's subtree included) */
  deleted: Record<Kind, number>;
}

export interface ImportOptions {
  /** called now and then with the number of records read so far */
  onProgress?: (records: number) => void;
  /** deletions older than this many days leave the change log (default: CHANGES_RETENTION_DAYS) */
  retentionDays?: number;
}

export class ImportError extends Error {
  constructor(
    readonly problems: string[],
    readonly total = problems.length,
  ) {
    super(problems.length === 1 ? problems[0] : `${total} problems, nothing was imported`);
  }
}

const KINDS: readonly string[] = RESOURCES.map((r) => r.kind);
const PROGRESS_EVERY = 10_000;

export async function importFile(
  db: Kysely<Database>,
  path: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  if (path.endsWith('.ndjson') || path.endsWith('.jsonl')) return importNdjson(db, path, options);
  if (!path.endsWith('.json'))
    throw new ImportError([
      `${path}: an import file must end in .json (a JSON document) or .ndjson (one record a line)`,
    ]);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ImportError([`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ImportError([`${path}: not valid JSON at ${describeJsonSyntaxError(jsonSyntaxError(text, e as Error))}`]);
  }
  return importDocument(db, doc, options);
}

const jsonPlace: PlaceFormat = (kind, place) => (kind === 'project' ? 'project' : `${kind}[${place}]`);

/** Imports a parsed JSON document: `{ project, categories?, products?, plans?, users?, orders? }`. */
export async function importDocument(
  db: Kysely<Database>,
  doc: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ImportError(['the document must be a JSON object with a "project"']);
  const sections = doc as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(sections)) {
    if (key !== 'project' && !KINDS.includes(key))
      problems.push(`${key}: is not a known section (project, ${KINDS.join(', ')})`);
    else if (key !== 'project' && !Array.isArray(sections[key])) problems.push(`${key}: must be an array`);
  }
  if (!('project' in sections)) problems.push('project: is required');
  if (problems.length) throw new ImportError(problems);

  return inTransaction(db, jsonPlace, options, async (session) => {
    await session.setProject(sections.project, 0);
    let n = 0;
    for (const { kind } of RESOURCES) {
      const list = (sections[kind] ?? []) as unknown[];
      for (let i = 0; i < list.length; i++) {
        await session.add(kind, list[i], i);
        if (++n % PROGRESS_EVERY === 0) options.onProgress?.(n);
      }
    }
  });
}

const linePlace: PlaceFormat = (_kind, line) => `line ${line}`;

/** Streams an NDJSON file: one `{ "type": …, …fields }` object a line, the project first. */
async function importNdjson(db: Kysely<Database>, path: string, options: ImportOptions): Promise<ImportSummary> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (e) {
    throw new ImportError([`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return inTransaction(db, linePlace, options, async (session) => {
    let line = 0;
    let records = 0;
    let projectSeen = false;
    let saidNoProject = false;
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        const { column, reason } = jsonSyntaxError(text, e as Error);
        session.problem('project', line, '', `is not valid JSON at column ${column}: ${reason}`);
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        session.problem('project', line, '', 'must be a JSON object with a "type"');
        continue;
      }
      const { type, ...record } = value as Record<string, unknown>;
      if (type === 'project') {
        if (projectSeen) session.problem('project', line, '', 'only one project line is allowed');
        else if (records > 0) session.problem('project', line, '', 'the project line must come first');
        else await session.setProject(record, line);
        projectSeen = true;
      } else if (typeof type === 'string' && resourceOfType(type)) {
        if (!projectSeen && !saidNoProject) {
          session.problem('project', line, '', 'the first record must be the project ({"type":"project",…})');
          saidNoProject = true;
        }
        await session.add(resourceOfType(type)!.kind, record, line);
      } else {
        session.problem('project', line, 'type', `must be one of project, ${RESOURCES.map((r) => r.type).join(', ')}`);
      }
      if (++records % PROGRESS_EVERY === 0) options.onProgress?.(records);
    }
    if (records === 0) session.problem('project', `${path}`, '', 'is empty: the first line must be the project');
  });
}

async function inTransaction(
  db: Kysely<Database>,
  format: PlaceFormat,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<void>,
): Promise<ImportSummary> {
  const retentionDays = options.retentionDays ?? changesRetentionDays();
  const summary = await db.transaction().execute(async (trx) => {
    const session = new ImportSession(trx, format, retentionDays);
    await read(session);
    await session.finish();
    if (!session.ok || !session.projectId) {
      throw new ImportError(
        session.problems.length ? session.problems : ['the file names no project'],
        session.problemCount,
      );
    }
    return { projectId: session.projectId, counts: session.counts, deleted: session.deleted };
  });
  // Once committed: the planner knows the new sizes before the first request after it.
  await refreshStatistics(db, RESOURCE_TABLES);
  return summary;
}

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ProjectRecord } from '../resources/projects/record.js';
import { type Kind, RESOURCES } from '../resources/registry.js';
import { writeProject } from '../writes/write-project.js';
import { describeJsonSyntaxError, jsonSyntaxError } from './json-syntax.js';
import { NdjsonReader, linePlace, linesOf, projectOfLine } from './ndjson.js';
import type { PlaceFormat } from './problems.js';
import { ImportSession } from './session.js';
import { checkRecord } from './validate.js';

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

  return run(db, sections.project, jsonPlace, options, async (session) => {
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

/** Streams an NDJSON file; its first line names the project written. */
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
  const lines = linesOf(stream);
  const first = await lines.next();
  const firstLine = first.done ? undefined : first.value;
  return run(db, projectOfLine(firstLine), linePlace, options, async (session) => {
    const reader = new NdjsonReader(session);
    if (firstLine) await reader.read(firstLine);
    for await (const line of lines) {
      await reader.read(line);
      if (reader.records % PROGRESS_EVERY === 0) options.onProgress?.(reader.records);
    }
    if (reader.records === 0) session.problems.add('project', path, '', 'is empty: the first line must be the project');
  });
}

/**
 * Reads the file into a session, all or nothing: a batch write of the project (src/writes/)
 * when the file names a valid one, else a session that only checks, so that every problem
 * is still reported.
 */
async function run(
  db: Kysely<Database>,
  project: unknown,
  format: PlaceFormat,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<void>,
): Promise<ImportSummary> {
  const readAll = async (session: ImportSession) => {
    await read(session);
    await session.finish();
    if (!session.ok || !session.projectId) {
      const { listed, count } = session.problems;
      throw new ImportError(listed.length ? listed : ['the file names no project'], count);
    }
    return { projectId: session.projectId, counts: session.counts, deleted: session.deleted };
  };
  const projectId = checkRecord(ProjectRecord, project).length === 0 ? (project as ProjectRecord).id : undefined;
  if (projectId === undefined) return readAll(new ImportSession(format));
  const write = await writeProject({ db }, projectId, (ctx) => readAll(new ImportSession(format, ctx)), {
    kind: 'batch',
    retentionDays: options.retentionDays,
  });
  return write.value;
}

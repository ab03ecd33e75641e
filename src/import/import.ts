import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { withBulkLoadCache } from '../db/bulk-load.js';
import type { Database } from '../db/schema.js';
import { ProjectRecord } from '../resources/projects/record.js';
import { type Kind, RESOURCES } from '../resources/registry.js';
import { type WriteContext, writeProject } from '../writes/write-project.js';
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
  /** called now and then with the number of records read so far and the share of the file read (0 to 1) */
  onProgress?: (records: number, fraction: number) => void;
  /** called once the whole file is read, with the number of records it held (the project's included) */
  onRead?: (records: number) => void;
  /** deletions older than this many days leave the change log (default: CHANGES_RETENTION_DAYS) */
  retentionDays?: number;
  /** the import is for this project: a file naming another is refused by name, before any write */
  project?: string;
  /** check everything and write nothing: the import runs in full, then rolls back */
  dryRun?: boolean;
  /** stops the import (rolled back, nothing written) at the next records read, or before the commit */
  signal?: AbortSignal;
  /** how messages name the file (default: its path) */
  name?: string;
  /** called when the write of the file's project begins (before anything is written) */
  onWrite?: (ctx: WriteContext) => void;
  /** called inside the write, after every check passed and before the commit: what it writes commits with the import */
  beforeCommit?: (ctx: WriteContext, summary: ImportSummary) => Promise<void>;
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
/** how often (in records) a signal is looked at */
const SIGNAL_EVERY = 500;

/** Called for every record read: progress now and then, and the signal. */
function ticker(options: ImportOptions, fraction: (records: number) => number) {
  return (records: number) => {
    if (records % SIGNAL_EVERY === 0) options.signal?.throwIfAborted();
    if (records % PROGRESS_EVERY === 0) options.onProgress?.(records, fraction(records));
  };
}

/** A dry run's way out of its write: the summary, with everything rolled back. */
class DryRunDone extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

export async function importFile(
  db: Kysely<Database>,
  path: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const name = options.name ?? path;
  if (path.endsWith('.ndjson') || path.endsWith('.jsonl')) return importNdjson(db, path, options);
  if (!path.endsWith('.json'))
    throw new ImportError([
      `${name}: an import file must end in .json (a JSON document) or .ndjson (one record a line)`,
    ]);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ImportError([`${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ImportError([`${name}: not valid JSON at ${describeJsonSyntaxError(jsonSyntaxError(text, e as Error))}`]);
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

  const total = RESOURCES.reduce((sum, { kind }) => sum + ((sections[kind] ?? []) as unknown[]).length, 0);
  const tick = ticker(options, (n) => n / Math.max(total, 1));
  const refuse = (id: string, wanted: string) =>
    `project.id: is "${id}", but this import is for the project "${wanted}"`;
  return run(db, sections.project, jsonPlace, refuse, options, async (session) => {
    await session.setProject(sections.project, 0);
    let n = 0;
    for (const { kind } of RESOURCES) {
      const list = (sections[kind] ?? []) as unknown[];
      for (let i = 0; i < list.length; i++) {
        await session.add(kind, list[i], i);
        tick(++n);
      }
    }
    return n + 1;
  });
}

/** Streams an NDJSON file; its first line names the project written. */
async function importNdjson(db: Kysely<Database>, path: string, options: ImportOptions): Promise<ImportSummary> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  const name = options.name ?? path;
  let size: number;
  try {
    await opened;
    size = (await stat(path)).size;
  } catch (e) {
    throw new ImportError([`${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  const tick = ticker(options, () => stream.bytesRead / Math.max(size, 1));
  const lines = linesOf(stream);
  const first = await lines.next();
  const firstLine = first.done ? undefined : first.value;
  const refuse = (id: string, wanted: string) =>
    `line ${firstLine?.number ?? 1}: id is "${id}", but this import is for the project "${wanted}"`;
  try {
    return await run(db, projectOfLine(firstLine), linePlace, refuse, options, async (session) => {
      const reader = new NdjsonReader(session);
      if (firstLine) await reader.read(firstLine);
      for await (const line of lines) {
        await reader.read(line);
        tick(reader.records);
      }
      if (reader.records === 0)
        session.problems.add('project', name, '', 'is empty: the first line must be the project');
      return reader.records;
    });
  } finally {
    // An import stopped early (a refusal, a cancel) leaves the file at once.
    stream.destroy();
  }
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
  refuse: (id: string, wanted: string) => string,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<number>,
): Promise<ImportSummary> {
  const readAll = async (session: ImportSession): Promise<ImportSummary> => {
    const records = await read(session);
    options.onRead?.(records);
    await session.finish();
    if (!session.ok || !session.projectId) {
      const { listed, count } = session.problems;
      throw new ImportError(listed.length ? listed : ['the file names no project'], count);
    }
    return { projectId: session.projectId, counts: session.counts, deleted: session.deleted };
  };
  const projectId = checkRecord(ProjectRecord, project).length === 0 ? (project as ProjectRecord).id : undefined;
  if (projectId === undefined) return readAll(new ImportSession(format));
  // Refused before anything is read or written: a key of one project never writes another's.
  if (options.project !== undefined && projectId !== options.project)
    throw new ImportError([refuse(projectId, options.project)]);
  try {
    const write = await writeProject(
      { db },
      projectId,
      async (ctx) => {
        options.onWrite?.(ctx);
        const summary = await withBulkLoadCache(ctx.db, () => readAll(new ImportSession(format, ctx)));
        options.signal?.throwIfAborted();
        if (options.dryRun) throw new DryRunDone(summary);
        await options.beforeCommit?.(ctx, summary);
        return summary;
      },
      { kind: 'batch', retentionDays: options.retentionDays },
    );
    return write.value;
  } catch (e) {
    if (e instanceof DryRunDone) return e.summary;
    throw e;
  }
}

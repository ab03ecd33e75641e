import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { RESOURCES } from '../resources/registry.js';
import { describeJsonSyntaxError, jsonSyntaxError } from './json-syntax.js';
import { type Line, NdjsonReader, linePlace, linesOf, projectOfLine } from './ndjson.js';
import type { PlaceFormat } from './problems.js';
import { importCsv } from './csv.js';
import { ImportError, type ImportOptions, type ImportSummary, run, ticker } from './run.js';

// `storefront import <file>`: a JSON document, an NDJSON stream or a products CSV (csv.ts),
// all or nothing. The whole import is one transaction; any invalid record rolls it back and
// every problem is listed by its place in the file.

export { ImportError, type ImportOptions, type ImportSummary } from './run.js';

const KINDS: readonly string[] = RESOURCES.map((r) => r.kind);

export async function importFile(
  db: Kysely<Database>,
  path: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const name = options.name ?? path;
  if (path.endsWith('.ndjson') || path.endsWith('.jsonl')) return importNdjson(db, path, options);
  if (path.toLowerCase().endsWith('.csv')) return importCsv(db, path, options);
  if (!path.endsWith('.json'))
    throw new ImportError([
      `${name}: an import file must end in .json (a JSON document), .ndjson (one record a line) or .csv (products)`,
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
        await tick(++n);
      }
    }
    return n + 1;
  });
}

/** Streams an NDJSON file; its first line names the project written. */
async function importNdjson(db: Kysely<Database>, path: string, options: ImportOptions): Promise<ImportSummary> {
  const name = options.name ?? path;
  let open: OpenLines;
  try {
    open = await openLines(path);
  } catch (e) {
    throw new ImportError([`${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  const firstLine = open.first;
  const refuse = (id: string, wanted: string) =>
    `line ${firstLine?.number ?? 1}: id is "${id}", but this import is for the project "${wanted}"`;
  try {
    return await run(db, projectOfLine(firstLine), linePlace, refuse, options, async (session) => {
      // A second reading (a staged import read again inside its write) starts from the top.
      if (open.started) {
        open.stream.destroy();
        open = await openLines(path);
      }
      open.started = true;
      const { stream, lines, first, size } = open;
      const tick = ticker(options, () => stream.bytesRead / Math.max(size, 1));
      const reader = new NdjsonReader(session);
      if (first) await reader.read(first);
      for await (const line of lines) {
        await reader.read(line);
        await tick(reader.records);
      }
      if (reader.records === 0)
        session.problems.add('project', name, '', 'is empty: the first line must be the project');
      return reader.records;
    });
  } finally {
    // An import stopped early (a refusal, a cancel) leaves the file at once.
    open.stream.destroy();
  }
}

interface OpenLines {
  stream: ReturnType<typeof createReadStream>;
  lines: ReturnType<typeof linesOf>;
  first: Line | undefined;
  size: number;
  /** whether a reading took its lines */
  started: boolean;
}

/** The file opened, and its first line read (the project it names). */
async function openLines(path: string): Promise<OpenLines> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    const size = (await stat(path)).size;
    const lines = linesOf(stream);
    const next = await lines.next();
    return { stream, lines, first: next.done ? undefined : next.value, size, started: false };
  } catch (e) {
    stream.destroy();
    throw e;
  }
}

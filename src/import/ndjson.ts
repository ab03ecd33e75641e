import type { ReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { RESOURCES, resourceOfType } from '../resources/registry.js';
import { jsonSyntaxError } from './json-syntax.js';
import type { PlaceFormat } from './problems.js';
import type { ImportSession } from './session.js';

// Reading an NDJSON import: one `{ "type": …, …fields }` object a line, the project first.

export const linePlace: PlaceFormat = (_kind, line) => `line ${line}`;

export interface Line {
  text: string;
  /** 1-based */
  number: number;
}

/** The file's lines that are not blank, numbered. */
export async function* linesOf(stream: ReadStream): AsyncGenerator<Line> {
  let number = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    number++;
    if (text.trim() !== '') yield { text, number };
  }
}

/** The project record of a first line `{"type":"project",…}`, if it is one (checked by the session). */
export function projectOfLine(line: Line | undefined): unknown {
  if (!line) return undefined;
  try {
    const value = JSON.parse(line.text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { type, ...record } = value as Record<string, unknown>;
    return type === 'project' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Hands each line to the session, reporting lines that are no record at their place. */
export class NdjsonReader {
  records = 0;
  private projectSeen = false;
  private saidNoProject = false;

  constructor(private readonly session: ImportSession) {}

  async read({ text, number }: Line): Promise<void> {
    const session = this.session;
    this.records++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const { column, reason } = jsonSyntaxError(text, e as Error);
      return session.problems.add('project', number, '', `is not valid JSON at column ${column}: ${reason}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return session.problems.add('project', number, '', 'must be a JSON object with a "type"');
    const { type, ...record } = value as Record<string, unknown>;
    if (type === 'project') {
      if (this.projectSeen) session.problems.add('project', number, '', 'only one project line is allowed');
      else if (this.records > 1) session.problems.add('project', number, '', 'the project line must come first');
      else await session.setProject(record, number);
      this.projectSeen = true;
    } else if (typeof type === 'string' && resourceOfType(type)) {
      if (!this.projectSeen && !this.saidNoProject) {
        session.problems.add('project', number, '', 'the first record must be the project ({"type":"project",…})');
        this.saidNoProject = true;
      }
      await session.add(resourceOfType(type)!.kind, record, number);
    } else {
      const types = RESOURCES.map((r) => r.type).join(', ');
      session.problems.add('project', number, 'type', `must be one of project, ${types}`);
    }
  }
}

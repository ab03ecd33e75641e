import { type Static, Type } from 'typebox';
import { Currency, strict } from '../record-fields.js';
import { PROJECT_ID } from '../../http/schemas.js';
import type { Project } from './repository.js';

/** The first record of an import file and of an export: the project itself. */
export const ProjectRecord = Type.Object(
  {
    id: Type.String({
      pattern: PROJECT_ID.source,
      description: 'a project id: 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit',
    }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Currency(),
  },
  strict,
);
export type ProjectRecord = Static<typeof ProjectRecord>;

export function projectRecord(p: Project): ProjectRecord {
  return { id: p.id, name: p.name, currency: p.currency };
}

import { type Static, Type } from 'typebox';
import { Id } from '../../http/schemas.js';
import { Handle, Timestamp, strict } from '../record-fields.js';

export const CategoryRecord = Type.Object(
  {
    id: Type.Optional(Id),
    handle: Handle,
    name: Type.String({ minLength: 1, maxLength: 128 }),
    parent_id: Type.Optional(Type.Union([Id, Type.Null()])),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);
export type CategoryRecord = Static<typeof CategoryRecord>;

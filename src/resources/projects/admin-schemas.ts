import { type Static, Type } from 'typebox';
import { CreatedKey } from '../keys/schemas.js';
import { ListMeta, Page, PerPage, Timestamp } from '../../http/schemas.js';
import { ProjectRecord } from './record.js';

// The admin API's shapes (docs/API.md, "Admin API").

export const ProjectCreate = Type.Object(ProjectRecord.properties, {
  additionalProperties: false,
  examples: [{ id: 'acme', name: 'Acme shop', currency: 'EUR' }],
});
export type ProjectCreate = Static<typeof ProjectCreate>;

const counted = (what: string) => Type.Integer({ minimum: 0, description: `its ${what}` });

export const ProjectCounts = Type.Object(
  {
    products: counted('products, hidden ones included'),
    categories: counted('categories'),
    plans: counted('plans, of every status'),
    users: counted('users'),
    orders: counted('orders'),
  },
  { description: "the project's records, by kind" },
);

export const AdminProject = Type.Object(
  { ...ProjectRecord.properties, created_at: Timestamp, counts: ProjectCounts },
  { $id: 'AdminProject', description: 'A project as the admin API lists it.' },
);

export const ProjectList = Type.Object({
  data: Type.Array(Type.Ref('AdminProject'), { description: 'the projects, by id' }),
  meta: ListMeta,
});

export const ProjectListQuery = Type.Object(
  { page: Type.Optional(Page), perpage: Type.Optional(PerPage) },
  { additionalProperties: false },
);

export const CreatedProject = Type.Object({
  project: Type.Object({ ...ProjectRecord.properties, created_at: Timestamp }),
  key: Type.Object(CreatedKey.properties, {
    description: "the project's first key, with every scope; its secret `key` is shown this once",
  }),
});

export const ConfirmDelete = Type.Object({
  'confirm-delete': Type.Optional(
    Type.String({
      description: 'the id of the project to delete, again: a guard against a wrong path',
      examples: ['acme'],
    }),
  ),
});

import { Type } from 'typebox';
import { IdOrHandle, ProjectId } from '../../http/schemas.js';

// Categories nest to any depth, so the schema refers to itself by $id.
export const Category = {
  $id: 'Category',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'handle', 'name', 'parent_id', 'subcategories'],
  properties: {
    id: { type: 'integer' },
    handle: { type: 'string' },
    name: { type: 'string' },
    parent_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    subcategories: { type: 'array', items: { $ref: 'Category' } },
  },
} as const;

/** A category in the change feed: flat, its place in the tree given by parent_id. */
export const FeedCategory = {
  $id: 'FeedCategory',
  type: 'object',
  additionalProperties: false,
  description:
    'A category as the change feed gives it: without subcategories (each is its own entry); the tree follows from parent_id.',
  required: ['id', 'handle', 'name', 'parent_id'],
  properties: {
    id: { type: 'integer' },
    handle: { type: 'string' },
    name: { type: 'string' },
    parent_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
  },
} as const;

export interface CategoryNode {
  id: number;
  handle: string;
  name: string;
  parent_id: number | null;
  subcategories: CategoryNode[];
}

export const CategoryTree = Type.Array(Type.Ref('Category'));

export const CategoryListQuery = Type.Object(
  {
    'root-category': Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'only this category and its subtree',
        examples: [1],
      }),
    ),
  },
  { additionalProperties: false },
);

export const CategoryParams = Type.Object({ project_id: ProjectId, category: IdOrHandle('category', '1') });

import { categoriesDescriptor } from './categories/descriptor.js';
import type { ResourceDescriptor } from './descriptor.js';
import { CHANGE_TYPES, type ChangeType } from '../changes/entry.js';
import { ordersDescriptor } from './orders/descriptor.js';
import { plansDescriptor } from './plans/descriptor.js';
import { productsDescriptor } from './products/descriptor.js';
import { usersDescriptor } from './users/descriptor.js';

// Every resource the import, the export and `storefront generate` handle, in the order of
// an import document and an export: a record may refer only to kinds before it, except
// that references are checked once the whole file is in (docs/API.md, "Import format").
//
// One list: the record types are CHANGE_TYPES (src/changes/entry.ts, in this order), and each
// has its resource here, keyed by its type, so that a type added there without its resource
// does not compile. Each descriptor names its own webhook events (`events`);
// test/writes/record-types.test.ts checks that each sits under its own type and that
// EVENT_TYPES holds exactly those events and `import.completed`.
const BY_TYPE: { readonly [T in ChangeType]: ResourceDescriptor } = {
  category: categoriesDescriptor,
  product: productsDescriptor,
  plan: plansDescriptor,
  user: usersDescriptor,
  order: ordersDescriptor,
};

export const RESOURCES: readonly ResourceDescriptor[] = CHANGE_TYPES.map((type) => BY_TYPE[type]);

export type Kind = ResourceDescriptor['kind'];

/** Every table of the resources' records and parts: what a bulk write may have changed. */
export const RESOURCE_TABLES: readonly string[] = RESOURCES.flatMap((r) => [r.kind, ...r.children.map((c) => c.table)]);

const byKind = new Map(RESOURCES.map((r) => [r.kind, r]));
const byType = new Map(RESOURCES.map((r) => [r.type, r]));

export function resourceOf(kind: Kind): ResourceDescriptor {
  return byKind.get(kind)!;
}

/** The resource of an NDJSON line's `type` ("product"), if there is one. */
export function resourceOfType(type: string): ResourceDescriptor | undefined {
  return byType.get(type as ResourceDescriptor['type']);
}

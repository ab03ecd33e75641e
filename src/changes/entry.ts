// What the change log records: which record changed, and whether it now exists.

/**
 * The record types, as the feed, NDJSON and messages name them, in the order of an import
 * document: the one list. Each has its resource (src/resources/registry.ts, which fails to
 * compile without it), whose descriptor's `type` it is.
 */
export const CHANGE_TYPES = ['category', 'product', 'plan', 'user', 'order'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export type ChangeAction = 'upsert' | 'delete';

export interface ChangeEntry {
  type: ChangeType;
  id: number;
  action: ChangeAction;
}

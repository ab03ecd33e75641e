// What the change log records: which record changed, and whether it now exists.

/** A record's type as the feed names it (each resource descriptor's `type`). */
export const CHANGE_TYPES = ['category', 'product', 'plan', 'user', 'order'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export type ChangeAction = 'upsert' | 'delete';

export interface ChangeEntry {
  type: ChangeType;
  id: number;
  action: ChangeAction;
}

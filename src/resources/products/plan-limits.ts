/**
 * Sizes at which the products list changes plans (list.ts, grouped-page.ts). Tests lower
 * them, so that a catalog of a few hundred products reaches every plan.
 */
export const PLAN_LIMITS = {
  /** rows of a first-key group counted before it counts as large (an index-only count: a millisecond or two) */
  largeGroup: 20_000,
};

import { invalid } from '../../../errors.js';

// Price ranges of the price facet: `price_ranges=0-1000,1000-5000,5000-` (half-open
// [from, to), an end may be open), or five ranges of round amounts chosen from the matches.

export interface PriceRange {
  from: number | null;
  to: number | null;
}

/** At most this many ranges in `price_ranges`. */
export const MAX_RANGES = 20;

export function parsePriceRanges(value: string): PriceRange[] {
  const parts = value.split(',');
  if (parts.length > MAX_RANGES) throw invalid('price_ranges', `must hold at most ${MAX_RANGES} ranges`);
  return parts.map((part) => {
    const m = /^(\d{0,13})-(\d{0,13})$/.exec(part);
    if (!m)
      throw invalid('price_ranges', 'must be comma-separated ranges from-to of whole amounts (an end may be left out)');
    const from = m[1] === '' ? null : Number(m[1]);
    const to = m[2] === '' ? null : Number(m[2]);
    if (from !== null && to !== null && from >= to)
      throw invalid('price_ranges', `range ${part}: from must be below to`);
    return { from, to };
  });
}

/**
 * Five adjacent ranges of a round width (1, 2 or 5 times a power of ten) starting at a
 * multiple of it, the smallest such width whose five ranges hold every price from min to max
 * and which is at least a twentieth of max: matches that share one price (or nearly) get
 * ranges a shopper reads (45.00–50.00, 50.00–55.00, … for 49.00), not steps of one cent.
 */
export function chosenRanges(min: number, max: number): PriceRange[] {
  const least = max / 20;
  for (let unit = 1; ; unit *= 10) {
    for (const m of [1, 2, 5]) {
      const width = unit * m;
      const start = Math.floor(min / width) * width;
      if (width >= least && start + 5 * width > max) {
        return Array.from({ length: 5 }, (_, i) => ({ from: start + i * width, to: start + (i + 1) * width }));
      }
    }
  }
}

// The first k of n items in an order, without sorting all n: a page of a broad match set
// (100k products for one common word) needs its first 20, and a bounded heap finds them
// in n·log k comparisons where a sort takes n·log n. Past a quarter of n, a sort is as cheap.

/**
 * The items 0 … n-1 first in `cmp`'s order, at most k of them, sorted. `fromEnd`: the best are
 * likely near the end (newest first over slots in id order), so that they are met first and
 * most items are turned away by one comparison with the heap's root; the answer is the same.
 */
export function firstK(n: number, k: number, cmp: (a: number, b: number) => number, fromEnd = false): number[] {
  if (k <= 0 || n === 0) return [];
  if (k * 4 >= n) {
    const all = Array.from({ length: n }, (_, i) => i);
    return all.sort(cmp).slice(0, k);
  }
  // A max-heap (by cmp) of the best k so far: its root is the worst of them.
  const heap: number[] = [];
  const worse = (a: number, b: number) => cmp(heap[a], heap[b]) > 0;
  const swap = (a: number, b: number) => ([heap[a], heap[b]] = [heap[b], heap[a]]);
  for (let step = 0; step < n; step++) {
    const i = fromEnd ? n - 1 - step : step;
    if (heap.length < k) {
      heap.push(i);
      for (let c = heap.length - 1; c > 0 && worse(c, (c - 1) >> 1); c = (c - 1) >> 1) swap(c, (c - 1) >> 1);
      continue;
    }
    if (cmp(i, heap[0]) >= 0) continue;
    heap[0] = i;
    for (let at = 0; ;) {
      const l = at * 2 + 1;
      const r = l + 1;
      let top = at;
      if (l < k && worse(l, top)) top = l;
      if (r < k && worse(r, top)) top = r;
      if (top === at) break;
      swap(at, top);
      at = top;
    }
  }
  return heap.sort(cmp);
}

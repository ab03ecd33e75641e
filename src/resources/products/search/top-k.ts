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

/**
 * The k largest of items offered one by one with a number as their order (ties: the larger
 * `tie`), without a call per comparison: the caller computes an item's key in its own loop
 * and offers it only when `full` is false or the key reaches `least`, so that a broad match
 * set's page costs one number comparison per item once the heap is full.
 */
export class KeyHeap {
  private readonly keys: Float64Array;
  private readonly ties: Float64Array;
  private readonly items: Int32Array;
  private size = 0;

  constructor(readonly capacity: number) {
    this.keys = new Float64Array(capacity);
    this.ties = new Float64Array(capacity);
    this.items = new Int32Array(capacity);
  }

  get full(): boolean {
    return this.size === this.capacity;
  }

  /** The smallest key kept (meaningful when full). */
  get least(): number {
    return this.keys[0];
  }

  offer(key: number, tie: number, item: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      let c = this.size++;
      this.place(c, key, tie, item);
      while (c > 0 && this.less(c, (c - 1) >> 1)) c = this.swap(c, (c - 1) >> 1);
      return;
    }
    if (key < this.keys[0] || (key === this.keys[0] && tie <= this.ties[0])) return;
    this.place(0, key, tie, item);
    for (let at = 0; ;) {
      const l = at * 2 + 1;
      const r = l + 1;
      let low = at;
      if (l < this.size && this.less(l, low)) low = l;
      if (r < this.size && this.less(r, low)) low = r;
      if (low === at) return;
      at = this.swap(at, low);
    }
  }

  /** The items kept, largest first. */
  sorted(): number[] {
    const places = Array.from({ length: this.size }, (_, i) => i);
    places.sort((a, b) => (this.less(a, b) ? 1 : this.less(b, a) ? -1 : 0));
    return places.map((p) => this.items[p]);
  }

  private less(a: number, b: number): boolean {
    const { keys, ties } = this;
    return keys[a] < keys[b] || (keys[a] === keys[b] && ties[a] < ties[b]);
  }

  private place(at: number, key: number, tie: number, item: number): void {
    this.keys[at] = key;
    this.ties[at] = tie;
    this.items[at] = item;
  }

  /** Swaps two places; returns the second. */
  private swap(a: number, b: number): number {
    const { keys, ties, items } = this;
    [keys[a], keys[b]] = [keys[b], keys[a]];
    [ties[a], ties[b]] = [ties[b], ties[a]];
    [items[a], items[b]] = [items[b], items[a]];
    return b;
  }
}

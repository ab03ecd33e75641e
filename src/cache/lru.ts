/**
 * A map bounded by total weight (bytes of an answer, 1 for a count or a statement) that
 * evicts what was not used recently. Keys carry the project's versions (versioned-key.ts), so
 * entries of an older version are never asked for again and simply age out; nothing has to be deleted on
 * a write.
 *
 * Second chance (CLOCK) rather than strict LRU: a hit only marks its entry, and eviction,
 * from the oldest, moves a marked entry to the end once instead of dropping it. Moving the
 * entry on every hit (Map delete + set) was quadratic for a hot key: V8 leaves a deleted
 * entry in its bucket's chain until the table is rebuilt, so a key asked again and again
 * walks all its former copies (measured in docs/PERFORMANCE.md, "Caches, and how each is
 * invalidated").
 */
interface Entry<V> {
  value: V;
  weight: number;
  used: boolean;
}

export class Lru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private total = 0;
  /** where eviction goes on from (the clock's hand) */
  private hand: Iterator<[string, Entry<V>]> = this.entries.entries();

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    e.used = true;
    return e.value;
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    const old = this.entries.get(key);
    if (old) {
      // Replaced in place (an answer that gained an encoding): it stays where it is, as used.
      this.total += weight - old.weight;
      old.value = value;
      old.weight = weight;
      old.used = true;
    } else {
      // Marked: it was just asked for, so it outlives older entries nobody asked for since.
      this.entries.set(key, { value, weight, used: true });
      this.total += weight;
    }
    // A Map iterates in insertion order, and an entry moved to the end is reached again,
    // unmarked, so the loop ends even when every entry was marked. The hand is one iterator
    // kept from eviction to eviction: a new one for each would start at the Map's front,
    // where V8 leaves every deleted entry as a hole until the table is rebuilt, and walk
    // them all on every set of a full map.
    while (this.total > this.maxWeight) {
      let next = this.hand.next();
      if (next.done) {
        this.hand = this.entries.entries();
        next = this.hand.next();
        if (next.done) break;
      }
      const [k, e] = next.value;
      this.entries.delete(k);
      if (e.used) {
        e.used = false;
        this.entries.set(k, e);
      } else {
        this.total -= e.weight;
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.weight;
  }

  /** The weight of what is kept (bytes, for a cache weighed in bytes). */
  get weight(): number {
    return this.total;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
    this.hand = this.entries.entries();
  }
}

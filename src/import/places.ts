/**
 * Where each record of one kind came from in the file (id → place), kept for the problems
 * found after the record was written (a handle taken, a reference that leads nowhere). Two
 * numbers a record in typed arrays: 16 bytes, where a Map took about ten times as much and
 * a million-record import must stay in bounded memory. Lookups happen only when a problem is
 * reported, so they scan (newest first: a record given twice is at its last place).
 */
export class Places {
  private ids: Float64Array = new Float64Array(1024);
  private places: Float64Array = new Float64Array(1024);
  private length = 0;

  add(id: number, place: number): void {
    if (this.length === this.ids.length) {
      this.ids = grow(this.ids);
      this.places = grow(this.places);
    }
    this.ids[this.length] = id;
    this.places[this.length] = place;
    this.length++;
  }

  get(id: number): number | undefined {
    for (let i = this.length - 1; i >= 0; i--) if (this.ids[i] === id) return this.places[i];
    return undefined;
  }

  /** Whether `id` was added (a scan: for the few look-ups of problems being reported). */
  has(id: number): boolean {
    for (let i = 0; i < this.length; i++) if (this.ids[i] === id) return true;
    return false;
  }

  /**
   * The ids added more than once, each with its places in the order added. Sorts a copy of
   * the ids (8 bytes a record, for the moment it takes) rather than keeping a set of them.
   */
  repeated(): Map<number, number[]> {
    const sorted = this.ids.slice(0, this.length).sort();
    const twice = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) twice.add(sorted[i]);
    const out = new Map<number, number[]>();
    if (twice.size === 0) return out;
    for (let i = 0; i < this.length; i++) {
      if (!twice.has(this.ids[i])) continue;
      const places = out.get(this.ids[i]);
      if (places) places.push(this.places[i]);
      else out.set(this.ids[i], [this.places[i]]);
    }
    return out;
  }

  /** Each id once, at its last place, in the order ids first appeared (for the few categories). */
  toMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let i = 0; i < this.length; i++) map.set(this.ids[i], this.places[i]);
    return map;
  }
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

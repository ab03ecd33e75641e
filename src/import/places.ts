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

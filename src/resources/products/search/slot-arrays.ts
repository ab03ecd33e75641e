// Growable typed arrays for the match index (match-index.ts): one column a slot, appended to
// as products are added, read by slot. A typed array holds a number in 4 or 8 bytes where a JS
// array of objects would take tens, which is what keeps a million products near 100 MiB. Each
// lies in a SharedArrayBuffer, so that a search thread (search-threads.ts) reads it in place.

type Typed = Int32Array | Float64Array | Uint8Array;

export class Grown<T extends Typed> {
  length = 0;

  constructor(
    public items: T,
    private readonly make: (size: number) => T,
  ) {}

  static int32(size = 16): Grown<Int32Array> {
    return new Grown(sharedInt32(size), sharedInt32);
  }

  static float64(size = 16): Grown<Float64Array> {
    return new Grown(new Float64Array(shared(size * 8)), (n) => new Float64Array(shared(n * 8)));
  }

  static uint8(size = 16): Grown<Uint8Array> {
    return new Grown(new Uint8Array(shared(size)), (n) => new Uint8Array(shared(n)));
  }

  push(value: number): void {
    if (this.length === this.items.length) this.resize(Math.max(16, this.items.length * 2));
    this.items[this.length++] = value;
  }

  /** Gives back the spare room of the doubling (after a build). */
  trim(): void {
    if (this.items.length > this.length) this.resize(this.length);
  }

  /** Keeps the first `n` items. */
  truncate(n: number): void {
    this.length = n;
  }

  get bytes(): number {
    return this.items.byteLength;
  }

  private resize(size: number): void {
    const next = this.make(size);
    (next as { set(from: ArrayLike<number>): void }).set(this.items.subarray(0, Math.min(this.length, size)));
    this.items = next;
  }
}

function shared(bytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(bytes);
}

/** A zeroed Int32Array of `n` in shared memory. */
export function sharedInt32(n: number): Int32Array {
  return new Int32Array(shared(n * 4));
}

/** Product id → slot: a dense array for ids up to DENSE (generated and imported ids are small), a map above. */
const DENSE = 1 << 23;

export class IdSlots {
  private dense = new Int32Array(0);
  private sparse = new Map<number, number>();

  get(id: number): number {
    if (id >= 0 && id < DENSE) return id < this.dense.length ? this.dense[id] - 1 : -1;
    return this.sparse.get(id) ?? -1;
  }

  set(id: number, slot: number): void {
    if (id < 0 || id >= DENSE) {
      if (slot < 0) this.sparse.delete(id);
      else this.sparse.set(id, slot);
      return;
    }
    if (id >= this.dense.length) {
      if (slot < 0) return;
      const next = new Int32Array(Math.min(DENSE, Math.max(1024, id * 2)));
      next.set(this.dense);
      this.dense = next;
    }
    this.dense[id] = slot + 1;
  }

  get bytes(): number {
    return this.dense.byteLength + this.sparse.size * 40;
  }
}

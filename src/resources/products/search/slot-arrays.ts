// Growable typed arrays for the match index (match-index.ts): one column a slot, appended to
// as products are added, read by slot. A typed array holds a number in 4 or 8 bytes where a JS
// array of objects would take tens, which is what keeps a million products near 100 MiB.
// After a build (trim) each lies in a SharedArrayBuffer, so that a search thread
// (search-threads.ts) reads it in place; while building, the doubling uses plain buffers,
// whose garbage the collector counts (an outgrown SharedArrayBuffer's it does not: at 1M the
// build left hundreds of MiB of them until a full collection).

type Typed = Int32Array | Float64Array | Uint8Array;
type Make<T> = (size: number, shared: boolean) => T;

export class Grown<T extends Typed> {
  length = 0;

  /** `shared`: its buffer shared from the start (a build that knows its size: no outgrown buffer left behind) */
  constructor(
    public items: T,
    private readonly make: Make<T>,
    private shared = false,
  ) {}

  static int32(size = 16, shared = false): Grown<Int32Array> {
    return new Grown(int32Of(size, shared), int32Of, shared);
  }

  static float64(size = 16, shared = false): Grown<Float64Array> {
    const make = (n: number, s: boolean) => (s ? new Float64Array(new SharedArrayBuffer(n * 8)) : new Float64Array(n));
    return new Grown(make(size, shared), make, shared);
  }

  static uint8(size = 16, shared = false): Grown<Uint8Array> {
    const make = (n: number, s: boolean) => (s ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n));
    return new Grown(make(size, shared), make, shared);
  }

  push(value: number): void {
    if (this.length === this.items.length) this.resize(Math.max(16, this.items.length * 2));
    this.items[this.length++] = value;
  }

  /** Shares the buffer from now on, and gives back the spare room of the doubling (after a build; a little is kept). */
  trim(): void {
    if (!this.shared) {
      this.shared = true;
      this.resize(this.length);
    } else if (this.items.length - this.length > this.length / 16 + 16) this.resize(this.length);
  }

  /** Keeps the first `n` items. */
  truncate(n: number): void {
    this.length = n;
  }

  get bytes(): number {
    return this.items.byteLength;
  }

  private resize(size: number): void {
    const next = this.make(size, this.shared);
    (next as { set(from: ArrayLike<number>): void }).set(this.items.subarray(0, Math.min(this.length, size)));
    this.items = next;
  }
}

/** A zeroed Int32Array of `n`, in shared memory when `shared`. */
export function int32Of(n: number, shared: boolean): Int32Array {
  return shared ? new Int32Array(new SharedArrayBuffer(n * 4)) : new Int32Array(n);
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

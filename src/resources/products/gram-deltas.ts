// What a write transaction changes in the kept search-gram counts (grams.ts), tallied in
// memory: for each gram of 1 to 3 characters, how many products (visible ones, and all)
// that contain it were added or taken out. A million products hold ~125 characters each,
// three grams a character: a Map keyed by strings was a large part of a bulk load, so a gram
// is a number (its code units, each + 1, in base 65537: exact in a double) in a typed-array hash
// table with linear probing.

const BASE = 65537;

/** Code units that no kept gram holds: the field separator, NUL and surrogates (astral characters). */
function excluded(c: number): boolean {
  return c === 0x1f || c === 0 || (c >= 0xd800 && c <= 0xdfff);
}

/** The key of a term of 1 to 3 code units that a gram can be, else undefined. */
export function gramKey(term: string): number | undefined {
  if (term.length < 1 || term.length > 3) return undefined;
  let key = 0;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (excluded(c)) return undefined;
    key = key * BASE + c + 1;
  }
  return key;
}

/** The gram a key stands for. */
export function gramOf(key: number): string {
  const units: number[] = [];
  for (let k = key; k > 0; k = Math.floor(k / BASE)) units.unshift((k % BASE) - 1);
  return String.fromCharCode(...units);
}

export interface GramDelta {
  gram: string;
  visible: number;
  total: number;
}

export class GramDeltas {
  private keys = new Float64Array(1 << 12);
  private totals = new Int32Array(1 << 12);
  private visibles = new Int32Array(1 << 12);
  /** the product (its serial) that last counted each slot: a product counts a gram once */
  private stamps = new Int32Array(1 << 12);
  private used = 0;
  private serial = 0;

  /** Adds (`sign` 1) or takes out (-1) one product's search_text: each distinct gram once. */
  add(text: string, visible: boolean, sign: 1 | -1): void {
    const serial = ++this.serial;
    const vis = visible ? sign : 0;
    // The previous two code units + 1 (0: none, at the start or after an excluded unit).
    let a = 0;
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (excluded(c)) {
        a = b = 0;
        continue;
      }
      const k = c + 1;
      this.bump(k, serial, sign, vis);
      if (b !== 0) {
        this.bump(b * BASE + k, serial, sign, vis);
        if (a !== 0) this.bump((a * BASE + b) * BASE + k, serial, sign, vis);
      }
      a = b;
      b = k;
    }
  }

  /** The grams whose counts changed. */
  *changed(): Generator<GramDelta> {
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] === 0 || (this.totals[i] === 0 && this.visibles[i] === 0)) continue;
      yield { gram: gramOf(this.keys[i]), visible: this.visibles[i], total: this.totals[i] };
    }
  }

  get size(): number {
    return this.used;
  }

  private bump(key: number, serial: number, sign: number, vis: number): void {
    const mask = this.keys.length - 1;
    let i = hash(key) & mask;
    for (;;) {
      const k = this.keys[i];
      if (k === key) break;
      if (k === 0) {
        this.keys[i] = key;
        if (++this.used * 2 > this.keys.length) {
          this.grow();
          return this.bump(key, serial, sign, vis);
        }
        break;
      }
      i = (i + 1) & mask;
    }
    if (this.stamps[i] === serial) return;
    this.stamps[i] = serial;
    this.totals[i] += sign;
    this.visibles[i] += vis;
  }

  private grow(): void {
    const { keys, totals, visibles, stamps } = this;
    const size = keys.length * 2;
    this.keys = new Float64Array(size);
    this.totals = new Int32Array(size);
    this.visibles = new Int32Array(size);
    this.stamps = new Int32Array(size);
    const mask = size - 1;
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === 0) continue;
      let i = hash(keys[j]) & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = keys[j];
      this.totals[i] = totals[j];
      this.visibles[i] = visibles[j];
      this.stamps[i] = stamps[j];
    }
  }
}

/** A 32-bit mix of a key below 2^53. */
function hash(key: number): number {
  const low = key >>> 0;
  const high = (key / 4294967296) >>> 0;
  return Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ (low >>> 15);
}

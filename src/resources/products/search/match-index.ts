import type { CategoryTree } from '../filters.js';
import { ReadGate } from './read-gate.js';
import { Grown, IdSlots } from './slot-arrays.js';
import { WordPostings } from './word-postings.js';
import { productWords } from './words.js';

// One project's products as `q`, its filters, its orders and its facets read them, in this
// process's memory (docs/PERFORMANCE.md, "Shopper search"). Each product has a slot: its
// columns are typed arrays read by slot, and each word's postings are one growable
// Int32Array of `slot × 2 + field` (0 the name). A changed product is not edited in place:
// its slot is marked dead (its postings stay, masked by the flag) and it gets a new slot at
// the end, so every list only ever grows by appending. When dead slots pass a quarter of
// them, compact() renumbers the live ones in one pass over the postings. The words are made
// by words.ts from the stored search_text, as the write makes the postings of migration 018.

export const LIVE = 1;
export const VISIBLE = 2;
export const STOCKED = 4;
export const ADVANCED = 8;

/**
 * What an answer reads of an index (memory-page.ts): its columns by slot and its category
 * tree. A search thread (search-threads.ts) is given these alone, over the same shared memory.
 */
export interface IndexColumns {
  readonly size: number;
  readonly ids: { readonly items: Float64Array };
  readonly price: { readonly items: Float64Array };
  readonly created: { readonly items: Float64Array };
  readonly custom: { readonly items: Float64Array };
  readonly flags: { readonly items: Uint8Array };
  readonly catStart: { readonly items: Int32Array };
  readonly catLinks: { readonly items: Int32Array };
  readonly tree: CategoryTree;
}

/** A product row as the index reads it (match-index-load.ts). */
export interface IndexedProduct {
  id: number;
  price: number;
  inventory_type: 'simple' | 'advanced';
  in_stock: number;
  stock_quantity: number;
  show_in_store: number;
  created_at: number;
  custom_sort: number;
  search_text: string;
  categories: number[];
}

export class MatchIndex implements IndexColumns {
  readonly ids: Grown<Float64Array>;
  readonly price: Grown<Float64Array>;
  readonly created: Grown<Float64Array>;
  readonly custom: Grown<Float64Array>;
  readonly flags: Grown<Uint8Array>;
  /** the slot's category links are catLinks[catStart[slot] .. catStart[slot + 1]) */
  readonly catStart: Grown<Int32Array>;
  readonly catLinks = Grown.int32();
  readonly postings = new WordPostings();
  readonly slotOf = new IdSlots();
  tree: CategoryTree = { parents: new Map() };
  /** the project's data_version this index shows (every change up to it applied) */
  seen = 0;
  /** a catch-up changes the arrays only while no search thread reads them */
  readonly gate = new ReadGate();
  private dead = 0;

  /** `expected`: the products a build expects, its columns made in shared memory at that size at once */
  constructor(
    readonly incarnation: string,
    expected = 0,
  ) {
    const size = expected > 0 ? expected + (expected >> 6) + 16 : 16;
    const shared = expected > 0;
    this.ids = Grown.float64(size, shared);
    this.price = Grown.float64(size, shared);
    this.created = Grown.float64(size, shared);
    this.custom = Grown.float64(size, shared);
    this.flags = Grown.uint8(size, shared);
    this.catStart = Grown.int32(size + 1, shared);
    this.catStart.push(0);
  }

  /** Slots in use, live or dead. */
  get size(): number {
    return this.ids.length;
  }

  /** `product` as it now is, or its removal (undefined). */
  put(id: number, product: IndexedProduct | undefined): void {
    const old = this.slotOf.get(id);
    if (old >= 0) {
      this.flags.items[old] &= ~LIVE;
      this.dead++;
      this.slotOf.set(id, -1);
    }
    if (product) this.add(product);
  }

  add(p: IndexedProduct): void {
    const slot = this.ids.length;
    this.ids.push(p.id);
    this.price.push(Number(p.price));
    this.created.push(Number(p.created_at));
    this.custom.push(Number(p.custom_sort));
    const advanced = p.inventory_type === 'advanced';
    const stocked = advanced ? Number(p.stock_quantity) > 0 : Number(p.in_stock) === 1;
    this.flags.push(
      LIVE | (Number(p.show_in_store) === 1 ? VISIBLE : 0) | (stocked ? STOCKED : 0) | (advanced ? ADVANCED : 0),
    );
    for (const c of p.categories) this.catLinks.push(c);
    this.catStart.push(this.catLinks.length);
    for (const [word, field] of productWords(p.search_text)) this.postings.add(word, slot * 2 + field);
    this.slotOf.set(p.id, slot);
  }

  /** After a build: the postings in their arrays, the doubling's spare room given back. */
  trim(): void {
    this.postings.foldIfWorth();
    for (const g of [this.ids, this.price, this.created, this.custom, this.flags, this.catStart, this.catLinks])
      g.trim();
  }

  /** Renumbers the live slots when dead ones pass a quarter (their postings cost as much as live ones). */
  compactIfWorth(): void {
    if (this.dead > 1024 && this.dead * 4 > this.size) this.compact();
    else this.postings.foldIfWorth();
  }

  compact(): void {
    const remap = new Int32Array(this.size);
    let next = 0;
    let link = 0;
    const f = this.flags.items;
    const columns = [this.ids, this.price, this.created, this.custom, this.flags];
    for (let s = 0; s < this.size; s++) {
      if ((f[s] & LIVE) === 0) {
        remap[s] = -1;
        continue;
      }
      remap[s] = next;
      for (const g of columns) g.items[next] = g.items[s];
      const from = this.catStart.items[s];
      const to = this.catStart.items[s + 1];
      this.catStart.items[next] = link;
      for (let i = from; i < to; i++) this.catLinks.items[link++] = this.catLinks.items[i];
      this.slotOf.set(this.ids.items[next], next);
      next++;
    }
    this.catStart.items[next] = link;
    for (const g of columns) g.truncate(next);
    this.catStart.truncate(next + 1);
    this.catLinks.truncate(link);
    this.postings.fold(remap);
    this.dead = 0;
    this.trim();
  }

  /** Bytes held, for the shared budget (match-index-cache.ts). */
  get bytes(): number {
    let b = this.postings.bytes + this.slotOf.bytes + this.tree.parents.size * 64;
    for (const g of [this.ids, this.price, this.created, this.custom, this.flags, this.catStart, this.catLinks])
      b += g.bytes;
    return b;
  }
}

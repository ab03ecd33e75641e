import { ApiError, type Product, type ProductBatchItem } from 'storefront-client';
import { etagOf } from '../etag.js';
import { messageOf } from '../format.js';
import { fromUnits, toUnits } from '../money.js';
import { priceProblem, stockProblem } from '../product-fields.js';

// The bulk editor's grid as data (bulk-editor.tsx draws it): a product's edit, the fields it
// changes, the problems seen before sending, and a refused batch's errors by cell.

export type Cell = 'name' | 'price' | 'inventory_type' | 'stock';

export interface Edit {
  name: string;
  price: string;
  inventory_type: Product['inventory_type'];
  /** the count of an advanced product */
  stock: string;
  /** a simple product's flag */
  in_stock: boolean;
}

export const editOf = (p: Product): Edit => ({
  name: p.name,
  price: toUnits(p.price, p.currency),
  inventory_type: p.inventory_type,
  stock: String(p.stock_quantity ?? 0),
  in_stock: p.in_stock,
});

export const LABELS: Record<Cell, string> = {
  name: 'Name',
  price: 'Price',
  inventory_type: 'Inventory',
  stock: 'Stock',
};

/** The cell a batch error's field belongs to. */
const CELL_OF: Record<string, Cell> = {
  name: 'name',
  price: 'price',
  inventory_type: 'inventory_type',
  stock_quantity: 'stock',
  in_stock: 'stock',
};

/** The fields the edit changes, as the update takes them; undefined when it changes nothing. */
function changesOf(p: Product, e: Edit): Omit<ProductBatchItem, 'id' | 'handle' | 'if_match'> | undefined {
  const changes: Omit<ProductBatchItem, 'id' | 'handle' | 'if_match'> = {};
  const price = fromUnits(e.price, p.currency);
  if (e.name !== p.name) changes.name = e.name;
  if (price !== undefined && price !== p.price) changes.price = price;
  if (e.inventory_type !== p.inventory_type) changes.inventory_type = e.inventory_type;
  // The stock field of the type the product will have: a count, or the in-stock flag.
  if (e.inventory_type === 'advanced' && (Number(e.stock) !== p.stock_quantity || changes.inventory_type))
    changes.stock_quantity = Number(e.stock);
  if (e.inventory_type === 'simple' && (e.in_stock !== p.in_stock || changes.inventory_type))
    changes.in_stock = e.in_stock;
  return Object.keys(changes).length ? changes : undefined;
}

/** Problems the browser can see before sending: an amount or a count that is not one. */
function checkEdit(p: Product, e: Edit): Partial<Record<Cell, string>> {
  const found: Partial<Record<Cell, string>> = {};
  const price = priceProblem(e.price, p.currency);
  if (price) found.price = price;
  const stock = e.inventory_type === 'advanced' && stockProblem(e.stock);
  if (stock) found.stock = stock;
  return found;
}

export type CellErrors = Map<number, Partial<Record<Cell, string>>>;

/** The batch's refusal: its errors beside the cells they name, what names no cell, and the note. */
export function batchFailure(error: unknown, sent: Product[]): { marked: CellErrors; rest: string[]; note: string } {
  const marked: CellErrors = new Map();
  const rest: string[] = [];
  const details = error instanceof ApiError ? error.details : [];
  for (const d of details) {
    const place = /^products\[(\d+)\]\.(\w+)/.exec(d.field);
    const product = place ? sent[Number(place[1])] : undefined;
    const cell = place ? CELL_OF[place[2]] : undefined;
    if (product && cell) marked.set(product.id, { ...marked.get(product.id), [cell]: d.message });
    else if (product && place?.[2] === 'if_match')
      rest.push(`${product.name}: changed by someone else since this page was loaded`);
    else if (product) rest.push(`${product.name}: ${d.field.replace(/^products\[\d+\]\./, '')} ${d.message}`);
    else rest.push(`${d.field}: ${d.message}`);
  }
  if (details.length === 0) rest.push(messageOf(error));
  const status = error instanceof ApiError ? error.status : 0;
  const note =
    status === 409
      ? 'Nothing was saved: reload the page to see their changes, then edit again.'
      : 'Nothing was saved: correct the marked cells.';
  return { marked, rest, note };
}

/** Each product's problems before sending, by product id (none: the grid may be sent). */
export function checkEdits(products: Product[], edits: Map<number, Edit>): CellErrors {
  const found: CellErrors = new Map();
  for (const p of products) {
    const bad = checkEdit(p, edits.get(p.id)!);
    if (Object.keys(bad).length) found.set(p.id, bad);
  }
  return found;
}

/** The products the grid changes, each with the fields it changes. */
export function changedProducts(products: Product[], edits: Map<number, Edit>) {
  return products.flatMap((product) => {
    const changes = changesOf(product, edits.get(product.id)!);
    return changes ? [{ product, changes }] : [];
  });
}

/** The batch the changes make: each product's changed fields with its If-Match (the ETag of the product as the grid shows it). */
export function batchItems(changed: ReturnType<typeof changedProducts>): Promise<ProductBatchItem[]> {
  return Promise.all(
    changed.map(async ({ product, changes }) => ({ id: product.id, ...changes, if_match: await etagOf(product) })),
  );
}

import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Product, type ProductBatchItem } from 'storefront-client';
import { messageOf } from '../format.js';
import { fromUnits, toUnits } from '../money.js';
import { priceProblem, stockProblem } from '../product-fields.js';
import { Action } from '../parts/action.js';
import { ListTable } from '../parts/list-table.js';
import { guardLeaving } from '../router.js';
import { api } from '../session.js';
import { etagOf } from '../etag.js';

// The bulk editor (CONTRACT 15 and 18): a grid of the current page's products, every edit
// saved together as ONE batch update (`PATCH …/products/`), so that either all of them are
// written or none. Only the edited fields of each product are sent, each with its `if_match`:
// the ETag of the product as the grid shows it (etag.ts), so nothing is read again before
// saving, and a product someone else changed meanwhile is a 409 that names it. The batch's
// errors come back by place (`products[3].price`) and are put beside that cell.

type Cell = 'name' | 'price' | 'inventory_type' | 'stock';

interface Edit {
  name: string;
  price: string;
  inventory_type: Product['inventory_type'];
  /** the count of an advanced product */
  stock: string;
  /** a simple product's flag */
  in_stock: boolean;
}

const editOf = (p: Product): Edit => ({
  name: p.name,
  price: toUnits(p.price, p.currency),
  inventory_type: p.inventory_type,
  stock: String(p.stock_quantity ?? 0),
  in_stock: p.in_stock,
});

const LABELS: Record<Cell, string> = { name: 'Name', price: 'Price', inventory_type: 'Inventory', stock: 'Stock' };

/** The cell an import error's field belongs to. */
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

export function BulkEditor({
  products,
  onSaved,
}: {
  products: Product[];
  /** after a save, with what to tell: the page reloads, and the grid is built again from it */
  onSaved: (note: string) => void;
}): JSX.Element {
  const [edits, setEdits] = useState(() => new Map(products.map((p) => [p.id, editOf(p)])));
  const [errors, setErrors] = useState<Map<number, Partial<Record<Cell, string>>>>(new Map());
  const [general, setGeneral] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  // Unsaved edits are asked about before leaving (another screen, a reload, closing the tab).
  const pending = products.filter((p) => JSON.stringify(edits.get(p.id)) !== JSON.stringify(editOf(p))).length;
  const pendingRef = useRef(0);
  pendingRef.current = pending;
  useEffect(
    () =>
      guardLeaving(() =>
        pendingRef.current > 0 ? `The bulk editor has unsaved changes to ${pendingRef.current} product(s).` : undefined,
      ),
    [],
  );

  const change = (id: number, cell: Partial<Edit>) => {
    setEdits(new Map(edits).set(id, { ...edits.get(id)!, ...cell }));
    setNote('');
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setGeneral([]);
    setNote('');
    const found = new Map<number, Partial<Record<Cell, string>>>();
    for (const p of products) {
      const bad = checkEdit(p, edits.get(p.id)!);
      if (Object.keys(bad).length) found.set(p.id, bad);
    }
    setErrors(found);
    if (found.size) return setNote('Nothing was saved: correct the marked cells.');
    const changed = products.flatMap((product) => {
      const changes = changesOf(product, edits.get(product.id)!);
      return changes ? [{ product, changes }] : [];
    });
    if (changed.length === 0) return setNote('Nothing changed.');
    setBusy(true);
    try {
      const items = await Promise.all(
        changed.map(async ({ product, changes }) => ({ id: product.id, ...changes, if_match: await etagOf(product) })),
      );
      await api().products.updateMany(items);
      onSaved(`Saved ${changed.length} product${changed.length === 1 ? '' : 's'} in one batch.`);
    } catch (error) {
      showFailure(
        error,
        changed.map((c) => c.product),
      );
    }
    setBusy(false);
  };

  /** The batch's refusal, beside the cells it names; what names no cell, listed below. */
  const showFailure = (error: unknown, sent: Product[]) => {
    const marked = new Map<number, Partial<Record<Cell, string>>>();
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
    setErrors(marked);
    setGeneral(rest);
    const status = error instanceof ApiError ? error.status : 0;
    setNote(
      status === 409
        ? 'Nothing was saved: reload the page to see their changes, then edit again.'
        : 'Nothing was saved: correct the marked cells.',
    );
  };

  const field = (p: Product, cell: Cell, input: (described: Record<string, string | undefined>) => JSX.Element) => {
    const message = errors.get(p.id)?.[cell];
    const id = `bulk-${p.id}-${cell}`;
    // data-label: the column's name above the cell on a phone, where the grid is cards (console.css).
    return (
      <td class={message ? 'bad-cell' : undefined} data-label={LABELS[cell]}>
        {input({ 'aria-invalid': message ? 'true' : undefined, 'aria-describedby': message ? id : undefined })}
        {message && (
          <span class="field-error" id={id}>
            {message}
          </span>
        )}
      </td>
    );
  };

  return (
    <form class="grid-edit" onSubmit={(e) => void save(e)} aria-label="Bulk edit of this page">
      <div class="table-wrap">
        <ListTable caption="Bulk edit: this page’s products" columns={['Name', 'Price', 'Inventory', 'Stock']}>
          {products.map((p) => {
            const e = edits.get(p.id)!;
            return (
              <tr key={p.id}>
                {field(p, 'name', (a) => (
                  <input
                    {...a}
                    aria-label={`Name of ${p.name}`}
                    value={e.name}
                    onInput={(ev) => change(p.id, { name: ev.currentTarget.value })}
                  />
                ))}
                {field(p, 'price', (a) => (
                  <input
                    {...a}
                    class="num"
                    inputMode="decimal"
                    aria-label={`Price of ${p.name} (${p.currency})`}
                    value={e.price}
                    onInput={(ev) => change(p.id, { price: ev.currentTarget.value })}
                  />
                ))}
                {field(p, 'inventory_type', (a) => (
                  <select
                    {...a}
                    aria-label={`Inventory of ${p.name}`}
                    value={e.inventory_type}
                    onChange={(ev) =>
                      change(p.id, { inventory_type: ev.currentTarget.value as Product['inventory_type'] })
                    }
                  >
                    <option value="simple">simple</option>
                    <option value="advanced">advanced</option>
                  </select>
                ))}
                {field(p, 'stock', (a) =>
                  e.inventory_type === 'advanced' ? (
                    <input
                      {...a}
                      class="num"
                      inputMode="numeric"
                      aria-label={`Stock of ${p.name}`}
                      value={e.stock}
                      onInput={(ev) => change(p.id, { stock: ev.currentTarget.value })}
                    />
                  ) : (
                    <label class="check">
                      <input
                        {...a}
                        type="checkbox"
                        checked={e.in_stock}
                        onChange={(ev) => change(p.id, { in_stock: ev.currentTarget.checked })}
                      />
                      <span>
                        In stock<span class="sr-only">: {p.name}</span>
                      </span>
                    </label>
                  ),
                )}
              </tr>
            );
          })}
        </ListTable>
      </div>
      <div class="buttons">
        <Action scope="products:write" type="submit" class="primary" busy={busy}>
          Save every change at once
        </Action>
        <span role="status" class={errors.size || general.length ? 'bad' : 'saved'}>
          {note}
        </span>
      </div>
      {general.length > 0 && (
        <ul class="problem" role="alert">
          {general.map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ul>
      )}
    </form>
  );
}

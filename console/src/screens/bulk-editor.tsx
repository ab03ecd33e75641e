import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Product } from 'storefront-client';
import { messageOf } from '../format.js';
import { fromUnits, toUnits } from '../money.js';
import { priceProblem, stockProblem } from '../product-fields.js';
import { Action } from '../parts/action.js';
import { importEnded } from '../parts/import-outcome.js';
import { ListTable } from '../parts/list-table.js';
import { api, can } from '../session.js';

// The bulk editor (CONTRACT 15): a grid of the current page's products, every edit saved
// together as ONE import, so that either all of them are written or none. An import replaces
// a product whole (CONTRACT 9: fields left out take their defaults), so each changed product
// goes in with every field it has, the edited ones changed; the project line carries the
// project's own name and currency (GET /v2/projects/<id>), or the import would rename it.
// The import's errors come back by place (`products[3].price`) and are put beside that cell.
// An import has no If-Match, so the changed products are read again just before it is sent,
// and a product that differs from what the page loaded stops the save (the window left is
// between that read and the import).

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

/** The whole product as an import record, with the edit applied; undefined when the edit changes nothing. */
function recordOf(p: Product, e: Edit, now: number): Record<string, unknown> | undefined {
  const price = fromUnits(e.price, p.currency);
  const advanced = e.inventory_type === 'advanced';
  const stock = advanced ? Number(e.stock) : (p.stock_quantity ?? 0);
  const same =
    e.name === p.name &&
    price === p.price &&
    e.inventory_type === p.inventory_type &&
    (advanced ? stock === p.stock_quantity : e.in_stock === p.in_stock);
  if (same) return undefined;
  // Everything the API shows of the product but its currency (the project's) goes in again.
  const { currency: _currency, ...fields } = p;
  return {
    ...fields,
    name: e.name,
    price,
    inventory_type: e.inventory_type,
    stock_quantity: stock,
    in_stock: advanced ? stock > 0 : e.in_stock,
    updated_at: now,
  };
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

export function BulkEditor({ products, onSaved }: { products: Product[]; onSaved: () => void }): JSX.Element {
  const [edits, setEdits] = useState(() => new Map(products.map((p) => [p.id, editOf(p)])));
  const [errors, setErrors] = useState<Map<number, Partial<Record<Cell, string>>>>(new Map());
  const [general, setGeneral] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

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
    const now = Math.floor(Date.now() / 1000);
    const changed: { product: Product; record: Record<string, unknown> }[] = [];
    for (const p of products) {
      const record = recordOf(p, edits.get(p.id)!, now);
      if (record) changed.push({ product: p, record });
    }
    if (changed.length === 0) return setNote('Nothing changed.');
    setBusy(true);
    try {
      // An import has no If-Match: a product someone changed since this page was loaded would
      // be overwritten whole. Read them again just before, and refuse if any moved.
      const fresh = await api().products.list({
        ids: changed.map((c) => c.product.id).join(','),
        perpage: 100,
        ...(can('products:read_hidden') ? { fetch_hidden: true } : {}),
      });
      // The whole record is compared: updated_at counts seconds, and two changes in one second
      // would look the same.
      const current = (id: number) => JSON.stringify(fresh.data.find((f) => f.id === id));
      const moved = changed.filter((c) => current(c.product.id) !== JSON.stringify(c.product));
      if (moved.length) {
        setNote('Nothing was saved.');
        setGeneral([
          `Changed or deleted by someone else since this page was loaded: ${moved.map((c) => c.product.name).join(', ')}. Reload the page and edit again.`,
        ]);
        setBusy(false);
        return;
      }
      const project = await api().project();
      const document = JSON.stringify({ project, products: changed.map((c) => c.record) });
      const created = await api().imports.create(document, { format: 'json', wait: 30 });
      const done = importEnded(created) ? created : await api().imports.wait(created.id, { intervalMs: 300 });
      if (done.status === 'succeeded') {
        setNote(`Saved ${changed.length} product${changed.length === 1 ? '' : 's'} in one import (#${done.id}).`);
        onSaved();
      } else {
        const marked = new Map<number, Partial<Record<Cell, string>>>();
        const rest: string[] = [];
        for (const e of done.errors) {
          const place = /^products\[(\d+)\](?:\.(\w+))?/.exec(e.place);
          const product = place ? changed[Number(place[1])]?.product : undefined;
          const cell = place?.[2] ? CELL_OF[place[2]] : undefined;
          if (product && cell) marked.set(product.id, { ...marked.get(product.id), [cell]: e.message });
          else rest.push(`${e.place}: ${e.message}`);
        }
        setErrors(marked);
        setGeneral(rest);
        setNote(`Nothing was saved (import #${done.id} ${done.status}): correct the marked cells.`);
      }
    } catch (error) {
      setGeneral([messageOf(error)]);
    }
    setBusy(false);
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
        <Action scope="imports:write" type="submit" class="primary" busy={busy}>
          Save every change as one import
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

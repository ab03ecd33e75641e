import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Product } from 'storefront-client';
import { Action } from '../parts/action.js';
import { ListTable } from '../parts/list-table.js';
import { useAction } from '../parts/use-action.js';
import { guardLeaving } from '../router.js';
import { api } from '../session.js';
import {
  type Cell,
  type CellErrors,
  type Edit,
  LABELS,
  batchFailure,
  batchItems,
  changedProducts,
  checkEdits,
  editOf,
} from './bulk-edit.js';

// The bulk editor (CONTRACT 15 and 18): a grid of the current page's products, every edit
// saved together as ONE batch update (`PATCH …/products/`), so that either all of them are
// written or none. Only the edited fields of each product are sent, each with its `if_match`:
// the ETag of the product as the grid shows it (etag.ts), so nothing is read again before
// saving, and a product someone else changed meanwhile is a 409 that names it. The batch's
// errors come back by place (`products[3].price`) and are put beside that cell.

export function BulkEditor({
  products,
  onSaved,
}: {
  products: Product[];
  /** after a save, with what to tell: the page reloads, and the grid is built again from it */
  onSaved: (note: string) => void;
}): JSX.Element {
  const [edits, setEdits] = useState(() => new Map(products.map((p) => [p.id, editOf(p)])));
  const [errors, setErrors] = useState<CellErrors>(new Map());
  const [general, setGeneral] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const { busy, act } = useAction();
  useUnsavedGuard(products.filter((p) => JSON.stringify(edits.get(p.id)) !== JSON.stringify(editOf(p))).length);

  const change = (id: number, cell: Partial<Edit>) => {
    setEdits(new Map(edits).set(id, { ...edits.get(id)!, ...cell }));
    setNote('');
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setGeneral([]);
    setNote('');
    const found = checkEdits(products, edits);
    setErrors(found);
    if (found.size) return setNote('Nothing was saved: correct the marked cells.');
    const changed = changedProducts(products, edits);
    if (changed.length === 0) return setNote('Nothing changed.');
    // The refusal is put beside its cells here, not kept as the action's error.
    await act(async () => {
      try {
        await api().products.updateMany(await batchItems(changed));
        onSaved(`Saved ${changed.length} product${changed.length === 1 ? '' : 's'} in one batch.`);
      } catch (error) {
        const failure = batchFailure(
          error,
          changed.map((c) => c.product),
        );
        setErrors(failure.marked);
        setGeneral(failure.rest);
        setNote(failure.note);
      }
    });
  };

  return (
    <form class="grid-edit" onSubmit={(e) => void save(e)} aria-label="Bulk edit of this page">
      <div class="table-wrap">
        <ListTable caption="Bulk edit: this page’s products" columns={['Name', 'Price', 'Inventory', 'Stock']}>
          {products.map((p) => (
            <BulkRow key={p.id} product={p} edit={edits.get(p.id)!} errors={errors.get(p.id)} onChange={change} />
          ))}
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

/** Unsaved edits are asked about before leaving (another screen, a reload, closing the tab). */
function useUnsavedGuard(pending: number): void {
  const pendingRef = useRef(0);
  pendingRef.current = pending;
  useEffect(
    () =>
      guardLeaving(() =>
        pendingRef.current > 0 ? `The bulk editor has unsaved changes to ${pendingRef.current} product(s).` : undefined,
      ),
    [],
  );
}

/** A cell of the grid: its input, and the problem beside it. */
function EditCell({
  product,
  cell,
  message,
  input,
}: {
  product: Product;
  cell: Cell;
  message: string | undefined;
  input: (described: Record<string, string | undefined>) => JSX.Element;
}): JSX.Element {
  const id = `bulk-${product.id}-${cell}`;
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
}

/** One product's row of the grid. */
function BulkRow({
  product: p,
  edit: e,
  errors,
  onChange: change,
}: {
  product: Product;
  edit: Edit;
  errors: Partial<Record<Cell, string>> | undefined;
  onChange: (id: number, cell: Partial<Edit>) => void;
}): JSX.Element {
  const field = (cell: Cell, input: (described: Record<string, string | undefined>) => JSX.Element) => (
    <EditCell product={p} cell={cell} message={errors?.[cell]} input={input} />
  );
  return (
    <tr>
      {field('name', (a) => (
        <input
          {...a}
          aria-label={`Name of ${p.name}`}
          value={e.name}
          onInput={(ev) => change(p.id, { name: ev.currentTarget.value })}
        />
      ))}
      {field('price', (a) => (
        <input
          {...a}
          class="num"
          inputMode="decimal"
          aria-label={`Price of ${p.name} (${p.currency})`}
          value={e.price}
          onInput={(ev) => change(p.id, { price: ev.currentTarget.value })}
        />
      ))}
      {field('inventory_type', (a) => (
        <select
          {...a}
          aria-label={`Inventory of ${p.name}`}
          value={e.inventory_type}
          onChange={(ev) => change(p.id, { inventory_type: ev.currentTarget.value as Product['inventory_type'] })}
        >
          <option value="simple">simple</option>
          <option value="advanced">advanced</option>
        </select>
      ))}
      {field('stock', (a) =>
        e.inventory_type === 'advanced' ? (
          <StockCount a={a} p={p} e={e} change={change} />
        ) : (
          <StockFlag a={a} p={p} e={e} change={change} />
        ),
      )}
    </tr>
  );
}

type StockProps = {
  a: Record<string, string | undefined>;
  p: Product;
  e: Edit;
  change: (id: number, cell: Partial<Edit>) => void;
};

/** An advanced product's stock: its count. */
function StockCount({ a, p, e, change }: StockProps): JSX.Element {
  return (
    <input
      {...a}
      class="num"
      inputMode="numeric"
      aria-label={`Stock of ${p.name}`}
      value={e.stock}
      onInput={(ev) => change(p.id, { stock: ev.currentTarget.value })}
    />
  );
}

/** A simple product's stock: in stock or not. */
function StockFlag({ a, p, e, change }: StockProps): JSX.Element {
  return (
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
  );
}

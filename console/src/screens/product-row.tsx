import type { JSX } from 'preact';
import { field } from '../format.js';
import { useState } from 'preact/hooks';
import { ApiError, type Product, type ProductUpdate } from 'storefront-client';
import { messageOf } from '../format.js';
import { formatMoney, fromUnits, toUnits } from '../money.js';
import { priceProblem, stockProblem } from '../product-fields.js';
import { Action } from '../parts/action.js';
import { api } from '../session.js';

// One product, edited in place: name, price (typed in currency units, sent in the smallest
// unit), inventory type and stock. What the API refuses is shown beside the field it names.

type Errors = Partial<Record<'name' | 'price' | 'inventory_type' | 'stock_quantity' | 'in_stock' | 'form', string>>;

export function ProductRow({
  product: initial,
  onSaved,
}: {
  product: Product;
  /** the product as the API answered the row's save (the bulk editor is built from it) */
  onSaved: (product: Product) => void;
}): JSX.Element {
  const [product, setProduct] = useState(initial);
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [inventory, setInventory] = useState(product.inventory_type);
  const id = `p${product.id}`;

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const change: ProductUpdate = {};
    const found: Errors = {};
    const name = field(form, 'name');
    if (name !== product.name) change.name = name;
    const priceText = field(form, 'price');
    const price = fromUnits(priceText, product.currency);
    const priceWrong = priceProblem(priceText, product.currency);
    if (priceWrong) found.price = priceWrong;
    else if (price !== product.price) change.price = price;
    if (inventory !== product.inventory_type) change.inventory_type = inventory;
    if (inventory === 'advanced') {
      const stock = field(form, 'stock_quantity');
      const stockWrong = stockProblem(stock);
      if (stockWrong) found.stock_quantity = stockWrong;
      else if (Number(stock) !== product.stock_quantity || change.inventory_type) change.stock_quantity = Number(stock);
    } else {
      const inStock = form.get('in_stock') === 'on';
      if (inStock !== product.in_stock || change.inventory_type) change.in_stock = inStock;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(change).length === 0) {
      setEditing(false);
      return;
    }
    setBusy(true);
    try {
      const next = await api().products.update(product.id, change);
      setProduct(next);
      onSaved(next);
      setEditing(false);
      setSaved(true);
    } catch (error) {
      const next: Errors = {};
      if (error instanceof ApiError && error.details.length > 0)
        for (const d of error.details) {
          const field = d.field.replace(/^body\.?/, '') as keyof Errors;
          if (field in change || field === 'stock_quantity' || field === 'in_stock') next[field] = d.message;
          else next.form = `${next.form ? `${next.form}; ` : ''}${d.field}: ${d.message}`;
        }
      else next.form = messageOf(error);
      setErrors(next);
    }
    setBusy(false);
  };

  if (!editing)
    return (
      <tr>
        <td>
          {product.name}
          {!product.show_in_store && <span class="tag">hidden</span>}
          <div class="muted">{product.sku ?? product.handle}</div>
        </td>
        <td class="num">{formatMoney(product.price, product.currency)}</td>
        <td>{product.inventory_type}</td>
        <td>
          {product.inventory_type === 'advanced'
            ? product.stock_quantity
            : product.in_stock
              ? 'in stock'
              : 'out of stock'}
        </td>
        <td>
          <Action
            scope="products:write"
            onClick={() => {
              setEditing(true);
              setSaved(false);
              setInventory(product.inventory_type);
            }}
            aria-label={`Edit ${product.name}`}
          >
            Edit
          </Action>
          {saved && (
            <span class="saved" role="status">
              Saved
            </span>
          )}
        </td>
      </tr>
    );

  const described = (field: keyof Errors) => (errors[field] ? `${id}-${field}-error` : undefined);
  const fieldError = (field: keyof Errors) =>
    errors[field] && (
      <span class="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </span>
    );
  return (
    <tr class="editing">
      <td colSpan={5}>
        <form class="inline-edit" onSubmit={(e) => void save(e)} aria-label={`Edit ${product.name}`}>
          <label>
            Name
            <input
              name="name"
              defaultValue={product.name}
              aria-invalid={errors.name ? 'true' : undefined}
              aria-describedby={described('name')}
            />
            {fieldError('name')}
          </label>
          <label>
            Price ({product.currency})
            <input
              name="price"
              inputMode="decimal"
              defaultValue={toUnits(product.price, product.currency)}
              aria-invalid={errors.price ? 'true' : undefined}
              aria-describedby={described('price')}
            />
            {fieldError('price')}
          </label>
          <label>
            Inventory
            <select
              name="inventory_type"
              value={inventory}
              onChange={(e) => setInventory(e.currentTarget.value as Product['inventory_type'])}
            >
              <option value="simple">simple (in stock or not)</option>
              <option value="advanced">advanced (counted)</option>
            </select>
            {fieldError('inventory_type')}
          </label>
          {inventory === 'advanced' ? (
            <label>
              Stock
              <input
                name="stock_quantity"
                inputMode="numeric"
                defaultValue={String(product.stock_quantity ?? 0)}
                aria-invalid={errors.stock_quantity ? 'true' : undefined}
                aria-describedby={described('stock_quantity')}
              />
              {fieldError('stock_quantity')}
            </label>
          ) : (
            <label class="check">
              <input name="in_stock" type="checkbox" defaultChecked={product.in_stock} />
              In stock
              {fieldError('in_stock')}
            </label>
          )}
          <span class="buttons">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => (setEditing(false), setErrors({}))}>
              Cancel
            </button>
          </span>
          {errors.form && (
            <span class="field-error" role="alert">
              {errors.form}
            </span>
          )}
        </form>
      </td>
    </tr>
  );
}

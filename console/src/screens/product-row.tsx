import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Product } from 'storefront-client';
import { formatMoney, toUnits } from '../money.js';
import { Action } from '../parts/action.js';
import { useAction } from '../parts/use-action.js';
import { api } from '../session.js';
import { type EditErrors, formChange, refusalErrors } from './product-edit.js';

// One product, edited in place: name, price (typed in currency units, sent in the smallest
// unit), inventory type and stock. What the API refuses is shown beside the field it names.

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
  const [errors, setErrors] = useState<EditErrors>({});
  const [saved, setSaved] = useState(false);
  const [inventory, setInventory] = useState(product.inventory_type);
  const { busy, act } = useAction();

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const { change, found } = formChange(new FormData(event.currentTarget as HTMLFormElement), product, inventory);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(change).length === 0) return setEditing(false);
    // The refusal is put beside its fields here, not kept as the action's error.
    await act(async () => {
      try {
        const next = await api().products.update(product.id, change);
        setProduct(next);
        onSaved(next);
        setEditing(false);
        setSaved(true);
      } catch (error) {
        setErrors(refusalErrors(error, change));
      }
    });
  };

  if (!editing) {
    const edit = () => {
      setEditing(true);
      setSaved(false);
      setInventory(product.inventory_type);
    };
    return <ProductView product={product} saved={saved} onEdit={edit} />;
  }
  return (
    <tr class="editing">
      <td colSpan={5}>
        <form class="inline-edit" onSubmit={(e) => void save(e)} aria-label={`Edit ${product.name}`}>
          <EditFields product={product} errors={errors} inventory={inventory} onInventory={setInventory} />
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

/** The product as a row of the list, with its Edit button and the note of its last save. */
function ProductView({ product, saved, onEdit }: { product: Product; saved: boolean; onEdit: () => void }) {
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
        <Action scope="products:write" onClick={onEdit} aria-label={`Edit ${product.name}`}>
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
}

/** The edit form's fields, each with its problem beside it. */
function EditFields({
  product,
  errors,
  inventory,
  onInventory,
}: {
  product: Product;
  errors: EditErrors;
  inventory: Product['inventory_type'];
  onInventory: (inventory: Product['inventory_type']) => void;
}) {
  const id = `p${product.id}`;
  const described = (name: keyof EditErrors) => ({
    'aria-invalid': errors[name] ? ('true' as const) : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const problem = (name: keyof EditErrors) =>
    errors[name] && (
      <span class="field-error" id={`${id}-${name}-error`}>
        {errors[name]}
      </span>
    );
  return (
    <>
      <label>
        Name
        <input name="name" defaultValue={product.name} {...described('name')} />
        {problem('name')}
      </label>
      <label>
        Price ({product.currency})
        <input
          name="price"
          inputMode="decimal"
          defaultValue={toUnits(product.price, product.currency)}
          {...described('price')}
        />
        {problem('price')}
      </label>
      <label>
        Inventory
        <select
          name="inventory_type"
          value={inventory}
          onChange={(e) => onInventory(e.currentTarget.value as Product['inventory_type'])}
        >
          <option value="simple">simple (in stock or not)</option>
          <option value="advanced">advanced (counted)</option>
        </select>
        {problem('inventory_type')}
      </label>
      {inventory === 'advanced' ? (
        <label>
          Stock
          <input
            name="stock_quantity"
            inputMode="numeric"
            defaultValue={String(product.stock_quantity ?? 0)}
            {...described('stock_quantity')}
          />
          {problem('stock_quantity')}
        </label>
      ) : (
        <label class="check">
          <input name="in_stock" type="checkbox" defaultChecked={product.in_stock} />
          In stock
          {problem('in_stock')}
        </label>
      )}
    </>
  );
}

import { ApiError, type Product, type ProductUpdate } from 'storefront-client';
import { field, messageOf } from '../format.js';
import { fromUnits } from '../money.js';
import { priceProblem, stockProblem } from '../product-fields.js';

// What the in-place edit of one product (product-row.tsx) sends and what it shows beside each
// field: the change its form makes, the problems seen before sending, and the API's refusal
// put beside the field it names.

export type EditErrors = Partial<
  Record<'name' | 'price' | 'inventory_type' | 'stock_quantity' | 'in_stock' | 'form', string>
>;

/** The fields the form changes, and what is wrong with them before anything is sent. */
export function formChange(
  form: FormData,
  product: Product,
  inventory: Product['inventory_type'],
): { change: ProductUpdate; found: EditErrors } {
  const change: ProductUpdate = {};
  const found: EditErrors = {};
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
  return { change, found };
}

/** The API's refusal of a change: beside the field it names, else for the whole form. */
export function refusalErrors(error: unknown, change: ProductUpdate): EditErrors {
  const next: EditErrors = {};
  if (error instanceof ApiError && error.details.length > 0)
    for (const d of error.details) {
      const name = d.field.replace(/^body\.?/, '') as keyof EditErrors;
      if (name in change || name === 'stock_quantity' || name === 'in_stock') next[name] = d.message;
      else next.form = `${next.form ? `${next.form}; ` : ''}${d.field}: ${d.message}`;
    }
  else next.form = messageOf(error);
  return next;
}

import { currencyDigits, fromUnits } from './money.js';

// What the console tells of a product's price and stock before sending them, in one place for
// every screen that edits products (product-row.tsx, bulk-editor.tsx): the same rule, the same
// words.

/** The price typed in currency units: undefined when it is one, else what it must be. */
export function priceProblem(text: string, currency: string): string | undefined {
  if (fromUnits(text, currency) !== undefined) return undefined;
  const digits = currencyDigits(currency);
  return digits === 0 ? `a whole number of ${currency}` : `an amount with at most ${digits} decimals`;
}

/** The stock count typed: undefined when it is a whole number, else what it must be. */
export function stockProblem(text: string): string | undefined {
  return /^-?\d+$/.test(text.trim()) ? undefined : 'a whole number';
}

// Amounts (a product's price, a plan price's amount, an order's total and item prices) are
// integers in the currency's smallest unit (CONTRACT 3), and the mistake everyone makes once
// is sending 12.34. So an amount's error says the unit, with an example in the project's own
// currency: its number of decimals is the currency's, as Intl knows it (2 for USD, 0 for JPY,
// 3 for KWD).

export const MAX_AMOUNT = 1_000_000_000_000;

/** The description every amount's schema carries: how an error message knows an amount (describeRule). */
export const AMOUNT_DESCRIPTION =
  "an integer in the currency's smallest unit: 1234 is 12.34 USD, 1234 JPY or 1.234 KWD";

const digitsOf = new Map<string, number>();

/** The currency's decimals: 2 for USD, 0 for JPY, 3 for KWD (2 for a code Intl does not know). */
export function currencyDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    } catch {
      digits = 2;
    }
    digitsOf.set(currency, (digits ??= 2));
  }
  return digits;
}

/** "12.34 USD is 1234", "1234 JPY is 1234", "1.234 KWD is 1234". */
export function amountExample(currency: string | undefined): string {
  if (currency === undefined) return '12.34 of a two-decimal currency is 1234';
  const digits = currencyDigits(currency);
  return `${(1234 / 10 ** digits).toFixed(digits)} ${currency} is 1234`;
}

/** What an amount must be, for the rule it broke (a range keyword says the range too). */
export function amountRule(keyword: string | undefined, currency: string | undefined): string {
  const range = keyword === 'minimum' || keyword === 'maximum' ? ` from 0 to ${MAX_AMOUNT}` : '';
  return `must be an integer${range} in the smallest currency unit (${amountExample(currency)})`;
}

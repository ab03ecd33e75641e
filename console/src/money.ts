// Prices are integers in the currency's smallest unit (CONTRACT 3); operators type them in
// units. The number of decimals is the currency's own, as Intl knows it: 2 for EUR, 0 for JPY
// and KRW, 3 for BHD and KWD. Parsing is done on the text, never through a float, so that
// "19.99" is 1999 exactly.

const digitsCache = new Map<string, number>();

export function currencyDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2; // an unknown code: the common case
    }
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** 1999 EUR -> "€19.99"; 500 JPY -> "¥500". */
export function formatMoney(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount / 10 ** digits);
  } catch {
    return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** 1999 EUR -> "19.99": the value an input shows for editing. */
export function toUnits(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  const sign = amount < 0 ? '-' : '';
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * "19.99" EUR -> 1999; "500" JPY -> 500. Undefined when the text is not an amount with at most
 * the currency's decimals: the caller says so beside the field. A comma is taken as the
 * decimal point too. A negative amount is passed on, for the API to judge.
 */
export function fromUnits(text: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const match = /^(-?)(\d+)(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > digits) return undefined;
  const value = Number(whole + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(value)) return undefined;
  return sign ? -value : value;
}

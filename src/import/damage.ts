// What a spreadsheet does to a text cell it opens and saves again, recognised by comparing the
// imported value with the stored one (docs/API.md, "What an import reports"). Each check is
// narrow on purpose: a warning must point at damage, not at every edit. What cannot be told
// apart from an edit (a number the user retyped, a value damaged the same way before it was
// stored) is not reported.

const DIGITS = /^\d+$/;
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?E[+-]?\d+$/i;
const GROUPED = /^[+-]?\d{1,3}(?:([,.' \u00a0\u202f])\d{3})+(?:[.,]\d+)?$/;
/** A date as a spreadsheet writes one: 03/04/2026, 3/4/26, 2026-03-04, 04.03.2026, 4-Mar-26 … */
const DATE =
  /^(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\d{1,2}[- ][A-Za-z]{3}[- ]\d{2,4})$/;
/** UTF-8's lead bytes read as Latin-1/Windows-1252 (Ã©, Ã¨, Â°, â€™ …) */
const MOJIBAKE =
  /[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]/;

/** Windows-1252's characters for the bytes 0x80-0x9f, which Latin-1 leaves to C1 controls. */
const CP1252 = new Map<string, number>(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'].map((c, i) => [c, 0x80 + i]),
);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Why `given` looks like `stored` damaged by a spreadsheet, or undefined. */
export function spreadsheetDamage(stored: string, given: string): string | undefined {
  if (stored === given) return undefined;
  const s = stored.trim();
  const g = given.trim();
  if (DIGITS.test(s) && s.length > 1 && s.startsWith('0') && g === s.replace(/^0+(?=\d)/, ''))
    return `lost its leading zeros (${quote(stored)} became ${quote(given)}): a spreadsheet read the text as a number`;
  if (DIGITS.test(s.replace(/^0+(?=\d)/, '')) && SCIENTIFIC.test(g) && sameNumber(s, g))
    return `became scientific notation (${quote(stored)} became ${quote(given)}): a spreadsheet read the text as a number and dropped digits`;
  if (DIGITS.test(s) && DIGITS.test(g) && s.length >= 16 && lostDigits(s.replace(/^0+(?=\d)/, ''), g))
    return `lost digits (${quote(stored)} became ${quote(given)}): a spreadsheet keeps 15 significant digits of a number`;
  if (SCIENTIFIC.test(s) && (DIGITS.test(g) || SCIENTIFIC.test(g)) && numberOf(s) === numberOf(g))
    return `was read as a number (${quote(stored)} became ${quote(given)}): a spreadsheet took the text for scientific notation`;
  if (DATE.test(g) && !DATE.test(s) && /\d/.test(s) && s.length <= 12)
    return `became a date (${quote(stored)} became ${quote(given)}): a spreadsheet read the text as a date`;
  if (separatorsOnly(s, g))
    return `gained or lost a thousands separator (${quote(stored)} became ${quote(given)}): a spreadsheet read the text as a number`;
  if (MOJIBAKE.test(given) && !MOJIBAKE.test(stored) && latin1Misread(given) === stored)
    return `looks mis-decoded (${quote(stored)} became ${quote(given)}): the file's UTF-8 was read as Latin-1 or Windows-1252 (open the CSV as UTF-8, or export it with its byte order mark)`;
  return undefined;
}

/** A value in a message: quoted, and cut short (a description may be long). */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text);
}

function numberOf(text: string): number {
  return Number(text.replace(',', '.'));
}

/** Two numbers whose digits agree as far as a double's 15 significant digits go. */
function sameNumber(digits: string, scientific: string): boolean {
  const exact = Number(digits);
  const read = numberOf(scientific);
  return read !== exact && Math.abs(read - exact) <= Math.abs(exact) * 1e-14;
}

/** `given` is `digits` rounded to 15 significant digits, zeros after. */
function lostDigits(digits: string, given: string): boolean {
  return given !== digits && given.length === digits.length && Number(given) === Number(Number(digits).toPrecision(15));
}

/** The same number with thousands separators added or taken away. */
function separatorsOnly(s: string, g: string): boolean {
  const grouped = GROUPED.exec(s) ?? GROUPED.exec(g);
  if (!grouped) return false;
  const strip = (t: string) => t.split(grouped[1]).join('');
  return strip(s) === strip(g) && /^[+-]?\d+(?:[.,]\d+)?$/.test(strip(s));
}

/** The text as it was before UTF-8 bytes were read as Windows-1252 characters, if it was. */
function latin1Misread(text: string): string | undefined {
  const bytes: number[] = [];
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const byte = code < 0x100 ? code : CP1252.get(c);
    if (byte === undefined) return undefined;
    bytes.push(byte);
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

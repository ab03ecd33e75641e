import { foldCase } from '../present.js';

// Words for `q` (CONTRACT 17): the text folded as `search` folds it (present.ts foldCase),
// then stripped of diacritics (NFD, combining marks removed: `été` -> `ete`), cut into runs of
// letters and digits. The stored products' words and the query's are made by these same
// functions, so both backends see the same strings.

/** Longer words are cut here: the index's keys stay short, and a query is cut alike. */
export const MAX_WORD = 64;

/** More words than this in `q` is a 400. */
export const MAX_QUERY_WORDS = 10;

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of an already case-folded text, in order, repeats kept. */
export function wordsOfFolded(folded: string): string[] {
  const plain = folded.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
  return (plain.match(WORD) ?? []).map((w) => ([...w].length > MAX_WORD ? [...w].slice(0, MAX_WORD).join('') : w));
}

/** The words a shopper typed. */
export function queryWords(q: string): string[] {
  return wordsOfFolded(foldCase(q));
}

/**
 * A product's words from its search_text (folded name, description and SKU joined by U+001F),
 * each with the first field it occurs in: 0 the name, 1 the description or SKU.
 */
export function productWords(searchText: string): Map<string, number> {
  const cut = searchText.indexOf('\u001f');
  const name = cut < 0 ? searchText : searchText.slice(0, cut);
  const words = new Map<string, number>();
  for (const w of wordsOfFolded(name)) words.set(w, 0);
  if (cut >= 0) for (const w of wordsOfFolded(searchText.slice(cut + 1))) if (!words.has(w)) words.set(w, 1);
  return words;
}

/** Edits a word of `length` characters may have: 1–4 none, 5–8 one, 9 and more two. */
export function typosAllowed(length: number): number {
  return length <= 4 ? 0 : length <= 8 ? 1 : 2;
}

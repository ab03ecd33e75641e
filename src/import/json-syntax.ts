// Where a JSON text stops being JSON, as line and column, for the import's "not valid JSON"
// problems. V8's messages give the offset for most errors ("… in JSON at position 42") but
// not for an unexpected character, where they quote a snippet instead. Then the offset is
// found by bisection: the error sits at the first offset where the text read so far can no
// longer begin a JSON document (a prefix that is merely cut short can). That takes a few
// dozen parses, on a path that ends the import anyway.

export interface JsonSyntaxError {
  /** 1-based */
  line: number;
  /** 1-based, in UTF-16 units as editors count them */
  column: number;
  /** V8's reason without its offset or snippet, e.g. `Unexpected token ','` */
  reason: string;
}

const AT_POSITION = / in JSON at position (\d+)/;
const SNIPPET = /, (?:\.\.\.)?".*" is not valid JSON$/s;

export function jsonSyntaxError(text: string, error: Error): JsonSyntaxError {
  const given = AT_POSITION.exec(error.message);
  const offset = given ? Number(given[1]) : firstBadOffset(text);
  const reason = error.message.replace(AT_POSITION, '').replace(SNIPPET, '');
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: countNewlines(before) + 1, column: offset - lineStart + 1, reason };
}

/** `line 3, column 14: Unexpected token ','` */
export function describeJsonSyntaxError(e: JsonSyntaxError): string {
  return `line ${e.line}, column ${e.column}: ${e.reason}`;
}

/** Whether `prefix` parses, or fails only for having been cut short. */
function couldBeginJson(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith('Unexpected end of JSON input')) return true;
    const at = AT_POSITION.exec(message);
    return at !== null && Number(at[1]) >= prefix.length;
  }
}

function firstBadOffset(text: string): number {
  // The first k such that text[0..k] (k + 1 characters) cannot begin a JSON document.
  let low = 0;
  let high = text.length; // text itself cannot
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (couldBeginJson(text.slice(0, mid + 1))) low = mid + 1;
    else high = mid;
  }
  return Math.min(low, text.length);
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

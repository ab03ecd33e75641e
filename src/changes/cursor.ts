// The feed's cursor (`since`, `next`): opaque to readers, base64url of
// `<seq>` — everything committed up to seq has been read — or of `<seq>.<type>.<id>` —
// everything up to that entry of the log, whose order is (seq, type, id). The second form
// ends a page in the middle of one transaction's entries (an import writes thousands under
// one seq).

export interface Cursor {
  seq: number;
  /** the last entry read within seq; absent: all of seq was read */
  after?: { type: string; id: number };
}

/** The cursor of everything committed up to `seq` (e.g. the feed as it stood before an import). */
export function encodeCursor(seq: number, after?: { type: string; id: number }): string {
  const text = after ? `${seq}.${after.type}.${after.id}` : String(seq);
  return Buffer.from(text).toString('base64url');
}

const FORM = /^(0|[1-9][0-9]{0,15})(?:\.([a-z]{1,20})\.([1-9][0-9]{0,15}))?$/;

/** The cursor a text names, or undefined when it is not one this API made. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(text)) return undefined;
  const match = FORM.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const seq = Number(match[1]);
  if (!Number.isSafeInteger(seq)) return undefined;
  if (match[2] === undefined) return { seq };
  const id = Number(match[3]);
  if (!Number.isSafeInteger(id)) return undefined;
  return { seq, after: { type: match[2], id } };
}

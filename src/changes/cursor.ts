// The feed's cursor (`since`, `next`): opaque to readers, base64url of
// `<seq>` — everything committed up to seq has been read — or of `<seq>.<type>.<id>` —
// everything up to that entry of the log, whose order is (seq, type, id). The second form
// ends a page in the middle of one transaction's entries (an import writes thousands under
// one seq). Either is followed by `~<incarnation>`, the project's life it was made in
// (migration 019): a project deleted and made again restarts its seqs at 1, and a cursor of
// the former life must be refused there (410), never read as a position in the new one.
// Cursors made before lives existed carry none and are judged by their seq alone.

export interface Cursor {
  seq: number;
  /** the last entry read within seq; absent: all of seq was read */
  after?: { type: string; id: number };
  /** the project's life the cursor was made in; absent: a cursor of before lives (or none asked) */
  incarnation?: string;
}

/** The cursor of everything committed up to `seq` (e.g. the feed as it stood before an import). */
export function encodeCursor(seq: number, after?: { type: string; id: number }, incarnation?: string): string {
  let text = after ? `${seq}.${after.type}.${after.id}` : String(seq);
  if (incarnation !== undefined) text += `~${incarnation}`;
  return Buffer.from(text).toString('base64url');
}

const FORM = /^(0|[1-9][0-9]{0,15})(?:\.([a-z]{1,20})\.([1-9][0-9]{0,15}))?(?:~([0-9A-Za-z]{1,32}))?$/;

/** The cursor a text names, or undefined when it is not one this API made. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(text)) return undefined;
  const match = FORM.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const seq = Number(match[1]);
  if (!Number.isSafeInteger(seq)) return undefined;
  const incarnation = match[4] === undefined ? {} : { incarnation: match[4] };
  if (match[2] === undefined) return { seq, ...incarnation };
  const id = Number(match[3]);
  if (!Number.isSafeInteger(id)) return undefined;
  return { seq, after: { type: match[2], id }, ...incarnation };
}

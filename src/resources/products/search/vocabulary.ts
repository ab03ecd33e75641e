import { typosAllowed } from './words.js';

// A project's vocabulary as a trie, and the words a query word matches in it: exactly, with
// typos by its length (Damerau, optimal string alignment: a swap of neighbours is one edit),
// and for the last word of `q` as a prefix. One walk of the trie with a row of the edit
// distance table per node (as MiniSearch and Lucene's automata do), pruned as soon as every
// cell of a row passes the allowed edits: the cost follows the words near the query, not the
// size of the vocabulary, and the vocabulary is far smaller than the catalog.

class TrieNode {
  readonly children = new Map<string, TrieNode>();
  word: string | null = null;
}

/** A match's code: 0 the word itself, else 1 + its edits (a prefix without typo: 1). */
export type MatchCodes = Map<string, number>;

export class Vocabulary {
  private readonly root = new TrieNode();
  size = 0;

  add(word: string): void {
    let node = this.root;
    for (const c of word) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = new TrieNode()));
      node = next;
    }
    if (node.word === null) this.size++;
    node.word = word;
  }

  /** The vocabulary's words `query` matches, with their codes. */
  match(query: string, prefix: boolean): MatchCodes {
    const q = [...query];
    const n = q.length;
    const k = typosAllowed(n);
    const out: MatchCodes = new Map();
    const prefixes: [TrieNode, number][] = [];
    const walk = (node: TrieNode, c: string, pc: string, prev: number[], prev2: number[] | null, depth: number) => {
      const row = new Array<number>(n + 1);
      row[0] = depth;
      let least = depth;
      for (let j = 1; j <= n; j++) {
        let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (q[j - 1] === c ? 0 : 1));
        if (prev2 && j > 1 && q[j - 1] === pc && q[j - 2] === c) v = Math.min(v, prev2[j - 2] + 1);
        row[j] = v;
        if (v < least) least = v;
      }
      const d = row[n];
      if (node.word !== null && d <= k) keep(out, node.word, d === 0 ? 0 : 1 + d);
      if (prefix && d <= k) prefixes.push([node, d]);
      if (least > k) return;
      for (const [ch, child] of node.children) walk(child, ch, c, row, prev, depth + 1);
    };
    const first = Array.from({ length: n + 1 }, (_, j) => j);
    for (const [ch, child] of this.root.children) walk(child, ch, '', first, null, 1);
    if (prefix) collectPrefixes(prefixes, out);
    return out;
  }
}

function keep(out: MatchCodes, word: string, code: number): void {
  const had = out.get(word);
  if (had === undefined || code < had) out.set(word, code);
}

/** Every word under a node whose path is within the edits of the query, fewest edits first. */
function collectPrefixes(prefixes: [TrieNode, number][], out: MatchCodes): void {
  prefixes.sort((a, b) => a[1] - b[1]);
  const seen = new Set<TrieNode>();
  for (const [start, d] of prefixes) {
    const stack = [start];
    while (stack.length) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      if (node.word !== null) keep(out, node.word, 1 + d);
      for (const child of node.children.values()) stack.push(child);
    }
  }
}

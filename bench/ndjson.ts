import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { categories, leaves, product } from '../src/generate/catalog.js';

/** Writes an NDJSON import file of a project with `n` generated products (and its categories). */
export async function writeNdjson(path: string, projectId: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (record: object) => {
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  };
  await write({ type: 'project', id: projectId, name: 'Import bench', currency: 'USD' });
  const cats = categories(1);
  for (const c of cats) await write({ type: 'category', ...c });
  const leafIds = leaves(cats);
  for (let i = 0; i < n; i++) await write({ type: 'product', ...product(i + 1, i, n, leafIds) });
  out.end();
  await once(out, 'finish');
}

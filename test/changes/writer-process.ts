import { spawnSync } from 'node:child_process';
import { connect } from '../../src/db/connect.js';
import { ImportError, importDocument } from '../../src/import/import.js';
import { PRODUCTS, PROJECT, category, order, plan, product, user } from './catalog.js';

// The second writer of test/changes/convergence.test.ts, a process of its own: until its
// time is up it imports batches of upserts and deletions (and re-creations of what it
// deleted), and now and then runs the real `storefront delete`. Usage:
// node writer-process.js <database url> <milliseconds>

const [url, ms] = process.argv.slice(2);
const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;
const storage = connect(url);
const deadline = Date.now() + Number(ms);
const pick = (n: number) => 1 + Math.floor(Math.random() * n);
let imports = 0;
let refused = 0;
let cliDeletes = 0;

for (let round = 0; Date.now() < deadline; round++) {
  if (round % 10 === 9) {
    // The CLI: one product (11 and up: orders refer to 1 to 10) and, now and then, a leaf category.
    const args = ['delete', PROJECT, 'product', String(10 + pick(PRODUCTS - 10))];
    spawnSync(process.execPath, [BIN, ...args, '--database', url], { stdio: 'ignore' });
    if (round % 20 === 19)
      spawnSync(process.execPath, [BIN, 'delete', PROJECT, 'category', String(4 + pick(4)), '--database', url], {
        stdio: 'ignore',
      });
    cliDeletes++;
    continue;
  }
  const doc = {
    project: { id: PROJECT, name: 'Convergence', currency: 'USD' },
    categories: [category(4 + pick(4))],
    products: [] as object[],
    plans: [round % 3 === 0 ? { id: 3, deleted: true } : plan(pick(3), Math.random() < 0.5 ? 'active' : 'archived')],
    users: [user(pick(20), `User ${round}`), { id: pick(20), deleted: true }],
    orders: [order(pick(30), round), ...(round % 4 === 0 ? [{ id: pick(30), deleted: true }] : [])],
  };
  const first = 10 + pick(PRODUCTS - 18);
  for (let id = first; id < first + 8; id++) doc.products.push(product(id, round, Math.random() < 0.8, 4 + pick(4)));
  doc.products.push({ id: 10 + pick(PRODUCTS - 10), deleted: true });
  try {
    await importDocument(storage.db, doc);
    imports++;
  } catch (e) {
    // A product naming a category another writer just deleted: the import is refused whole.
    if (!(e instanceof ImportError)) throw e;
    refused++;
  }
}
await storage.close();
process.stdout.write(JSON.stringify({ imports, refused, cliDeletes }) + '\n');

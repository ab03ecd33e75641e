import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What the import suites feed the importer: files in a temporary folder of their own, and
// an order whose items say only which product they name (the rest is the same in every case).

/** A new temporary folder, and `file(name, text)` that writes a file there and answers its path. */
export function tempFiles(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return { dir, file };
}

/** Order 1 of u@example.com with one item per [product_id, name]. */
export function orderWithItems(...items: [number | null, string][]) {
  return {
    id: 1,
    customer_email: 'u@example.com',
    items: items.map(([product_id, name]) => ({ product_id, name, quantity: 1, price: 1 })),
  };
}

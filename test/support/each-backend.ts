import type { Backend } from '../../src/db/connect.js';
import { PG_SKIP, backends } from './storage.js';
import { suite } from './suite.js';

/** Declares the suite once per backend; the PostgreSQL copy says clearly when it is skipped. */
export function eachBackend(name: string, body: (backend: Backend) => void): void {
  for (const backend of backends()) {
    const skip = backend === 'postgres' ? PG_SKIP : false;
    suite(`${name} [${backend}]`, { skip }, () => body(backend));
  }
}

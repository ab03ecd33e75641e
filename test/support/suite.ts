import { describe, test } from 'node:test';

type SuiteOptions = { skip?: boolean | string; timeout?: number };

/**
 * `describe`, except that a skipped suite is reported as one skipped test: node's runner
 * leaves a skipped suite out of its `skipped` count, so the summary said `skipped 0` while
 * the PostgreSQL or Redis suites had printed that they were skipped.
 */
export function suite(name: string, options: SuiteOptions, body: () => void): void {
  if (options.skip) test(name, { skip: options.skip }, () => {});
  else describe(name, options, body);
}

// A node:test reporter that counts the tests run against PostgreSQL (those inside a suite
// or test whose name says "[postgres]" or "PostgreSQL"), so that CI can show that part
// really ran: when TEST_DATABASE_URL is set, zero PostgreSQL tests or a skipped one is a
// broken CI set-up, not a green run. test/run.js adds it when TEST_BACKEND_SUMMARY is set.

const PG = /\[postgres\]|postgresql/i;

/**
 * Whether a skip leaves PostgreSQL untried: one without a reason, or one whose reason is
 * PostgreSQL's (no TEST_DATABASE_URL, no server binaries). A test skipped on both backends
 * for a tool of its own (LibreOffice for the spreadsheet round trip) says so and is not one.
 */
function skipsPostgres(reason) {
  return typeof reason !== 'string' || /postgres|TEST_DATABASE_URL|pg_/i.test(reason);
}

export default async function* backendCount(source) {
  // Names of the open tests, by nesting. Not kept per file: a suite's `file` is where
  // describe() was called (test/support/each-backend.js), not the test file.
  const stack = [];
  const count = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const names = [...stack.slice(0, data.nesting), data.name];
      if (!names.some((n) => PG.test(n))) continue;
      // A skipped suite reports once; its tests never start. Count real tests and such suites.
      const suite = data.details?.type === 'suite';
      if (data.skip && skipsPostgres(data.skip)) count.skipped++;
      else if (data.skip) continue;
      else if (suite) continue;
      else if (event.type === 'test:pass') count.passed++;
      else count.failed++;
    }
  }
  yield `PostgreSQL tests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`;
}

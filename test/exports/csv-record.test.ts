import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'csv-stringify/sync';
import { csvRecord } from '../../src/export/csv-record.js';

// The exports' own CSV writer (src/export/csv-record.ts) writes csv-stringify's bytes, the
// writer it replaced, with a line break in a cell quoted (`quote_record_delimiter`): every
// quoting case, and many cells drawn from the characters that matter.

const OPTIONS = { record_delimiter: 'windows', quote_record_delimiter: true } as const;

test('a record is csv-stringify’s, cell by cell; a line break is quoted', () => {
  assert.equal(csvRecord(['1', 'two\nlines', 'a\rb']), '1,"two\nlines","a\rb"\r\n');
  const cases = [
    ['plain', '', 'a b', "'=1+2", 'é ✓ 𝄞'],
    ['a,b', 'say "hi"', '"', '""', 'two\nlines', 'cr\r', '\r\n', ',', ' lead', 'trail '],
    [''],
    ['', ''],
    ['only,comma'],
  ];
  for (const cells of cases) assert.equal(csvRecord(cells), stringify([cells], OPTIONS), JSON.stringify(cells));
  const alphabet = ['a', ',', '"', '\r', '\n', ' ', "'", '=', '|', ';', 'é'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const cells = Array.from({ length: 2000 }, () =>
    Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join(''),
  );
  for (let i = 0; i < cells.length; i += 5) {
    const record = cells.slice(i, i + 5);
    assert.equal(csvRecord(record), stringify([record], OPTIONS), JSON.stringify(record));
  }
});

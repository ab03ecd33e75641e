import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spreadsheetDamage } from '../../src/import/damage.js';

// What a spreadsheet does to text it takes for a number or a date, as LibreOffice Calc 7.4
// and Excel save it again, against edits that must not warn.

const DAMAGED: [string, string, RegExp][] = [
  ['00123', '123', /^lost its leading zeros \("00123" became "123"\)/],
  ['0012345678901234567', '1.23456789012346E+016', /^became scientific notation/],
  ['12345678901234567', '12345678901234600', /^lost digits/],
  ['1E5', '100000', /^was read as a number/],
  ['1E5', '1.00E+05', /^was read as a number/],
  ['3/4', '03/04/2026', /^became a date/],
  ['3/4', '03/04/26', /^became a date/],
  ['1-2', '2026-01-02', /^became a date/],
  ['1,000', '1000', /^gained or lost a thousands separator/],
  ['1000', '1,000', /^gained or lost a thousands separator/],
  ['1.234.567', '1234567', /^gained or lost a thousands separator/],
  ['Crème brûlée', 'CrÃ¨me brÃ»lÃ©e', /^looks mis-decoded/],
  ['It’s €5', 'Itâ€™s â‚¬5', /^looks mis-decoded/],
];

const EDITS: [string, string][] = [
  ['SKU-1', 'SKU-2'],
  ['Linen shirt', 'Linen Shirt'],
  ['4900', '5000'],
  ['123', '0123'],
  ['Spring', '2026-03-04'],
  ['a', ''],
  ['Crème', 'Creme'],
  ['1,000', '2000'],
  ['Ãrvíztűrő', 'Ãrvíztűrő tükörfúrógép'],
];

test('what a spreadsheet did to a text is named', () => {
  for (const [stored, given, message] of DAMAGED)
    assert.match(spreadsheetDamage(stored, given) ?? 'nothing', message, `${stored} -> ${given}`);
});

test('an edit is not a warning', () => {
  for (const [stored, given] of EDITS)
    assert.equal(spreadsheetDamage(stored, given), undefined, `${stored} -> ${given}`);
});

test('a long value is cut short in the message', () => {
  const long = `00${'1'.repeat(100)}`;
  const message = spreadsheetDamage(long, long.slice(2))!;
  assert.ok(message.length < 220, message);
});

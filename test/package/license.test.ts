import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const ROOT = new URL('../../../', import.meta.url);

test('the LICENSE file is the license package.json names', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { license: string };
  assert.equal(pkg.license, 'MIT');
  const text = readFileSync(new URL('LICENSE', ROOT), 'utf8');
  assert.match(text, /^MIT License\n\nCopyright \(c\) \d{4} .+\n/);
  assert.match(text, /Permission is hereby granted, free of charge/);
});

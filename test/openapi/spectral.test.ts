import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
// CommonJS packages: their default export is the whole module.
import spectralCore from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { testApp } from '../support/app.js';

const { Document, Spectral } = spectralCore;
const { oas } = spectralRulesets;

// Stoplight Spectral's `spectral:oas` ruleset on the served document (issue 29): no error and
// no warning, except the rules that the committed .spectral.yaml turns off, each with its
// reason there. The same file serves `npx @stoplight/spectral-cli lint` by hand.

test('Spectral spectral:oas: nothing but what .spectral.yaml justifies', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const text = (await app.inject('/v2/openapi.json')).body;
  const config = Parsers.Yaml.parse(readFileSync('.spectral.yaml', 'utf8')).data as {
    extends: string[];
    rules: Record<string, string>;
  };
  assert.deepEqual(config.extends, ['spectral:oas']);
  assert.ok(Object.values(config.rules).every((v) => v === 'off'));
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [oas as never], rules: config.rules as never });
  const results = await spectral.run(new Document(text, Parsers.Json, 'openapi.json'));
  assert.deepEqual(
    results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`),
    [],
  );
  // the switched-off rules still name rules of the ruleset (a typo would switch off nothing)
  for (const rule of Object.keys(config.rules)) assert.ok(rule in (oas as { rules: object }).rules, rule);
});

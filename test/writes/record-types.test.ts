import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHANGE_TYPES } from '../../src/changes/entry.js';
import { RESOURCES, resourceOfType } from '../../src/resources/registry.js';
import { EVENT_TYPES } from '../../src/webhooks/events.js';

// The record types are one list (CHANGE_TYPES), each with its resource (registry.ts); the
// webhook events are each resource's own, besides the import's. These fail when a type, a
// resource or an event is added to one place and not the others.

test('every record type has its own resource, in the order of the list', () => {
  assert.deepEqual(
    RESOURCES.map((r) => r.type),
    [...CHANGE_TYPES],
  );
  for (const type of CHANGE_TYPES) assert.equal(resourceOfType(type)?.type, type);
  assert.equal(new Set(RESOURCES.map((r) => r.kind)).size, RESOURCES.length, 'each resource its own table');
});

test('the webhook events are exactly the resources’ events and import.completed', () => {
  const ofResources = new Set(RESOURCES.flatMap((r) => [r.events.upsert, r.events.delete]));
  assert.deepEqual(new Set(EVENT_TYPES), new Set([...ofResources, 'import.completed']));
  for (const r of RESOURCES) {
    assert.ok(r.events.upsert.startsWith(`${r.type}.`), `${r.type}: ${r.events.upsert}`);
    assert.ok(r.events.delete.startsWith(`${r.type}.`), `${r.type}: ${r.events.delete}`);
  }
});

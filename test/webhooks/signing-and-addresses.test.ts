import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { isRefusedAddress } from '../../src/webhooks/address-guard.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelay } from '../../src/webhooks/schedule.js';
import { newSecret, signatureHeader } from '../../src/webhooks/signing.js';

// The pieces of webhooks that need no database: signatures as the standardwebhooks package
// makes and checks them, the address rule, the retry schedule.

test('signatures are those of the standardwebhooks package, and it verifies them', () => {
  const secret = newSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const body = JSON.stringify({ type: 'product.updated', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 1 } });
  const ts = Math.floor(Date.now() / 1000);
  const header = signatureHeader([secret], 'msg_x', ts, body);
  assert.equal(header, new Webhook(secret).sign('msg_x', new Date(ts * 1000), body));
  const headers = { 'webhook-id': 'msg_x', 'webhook-timestamp': String(ts), 'webhook-signature': header };
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  assert.throws(() => new Webhook(newSecret()).verify(body, headers), /No matching signature/);
  assert.throws(() => new Webhook(secret).verify(`${body} `, headers), /No matching signature/);

  // During a roll: two signatures, and each secret alone verifies.
  const next = newSecret();
  const both = signatureHeader([next, secret], 'msg_x', ts, body);
  assert.equal(both.split(' ').length, 2);
  for (const s of [secret, next]) new Webhook(s).verify(body, { ...headers, 'webhook-signature': both });
});

test('loopback, private, link-local and reserved addresses are refused, in every spelling', () => {
  const refused = [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '0:0:0:0:0:ffff:c0a8:0101',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    'not an address',
  ];
  for (const ip of refused) assert.equal(isRefusedAddress(ip), true, ip);
  const allowed = [
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ];
  for (const ip of allowed) assert.equal(isRefusedAddress(ip), false, ip);
});

test('the retry schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each within 10%', () => {
  const hours = (h: number) => h * 3_600_000;
  assert.deepEqual(RETRY_DELAYS_MS, [
    5000,
    300_000,
    1_800_000,
    hours(2),
    hours(5),
    hours(10),
    hours(14),
    hours(20),
    hours(24),
  ]);
  assert.equal(MAX_ATTEMPTS, 10);
  for (const [i, base] of RETRY_DELAYS_MS.entries()) {
    assert.equal(
      retryDelay(i + 1, () => 0.5),
      base,
    );
    assert.equal(
      retryDelay(i + 1, () => 0),
      base * 0.9,
    );
    assert.ok(retryDelay(i + 1, () => 0.999999)! <= base * 1.1);
  }
  assert.equal(retryDelay(10), undefined);
});

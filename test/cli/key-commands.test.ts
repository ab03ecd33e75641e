import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { keysAsTable } from '../../src/cli/key-table.js';
import { SCOPES } from '../../src/keys/scopes.js';

// `storefront key create --scopes --expires-in`, `key roll --overlap`, `key list` and --help,
// as a user runs them (docs/API.md, "Expiry, roll and revocation").

const BIN = join(process.cwd(), 'bin', 'storefront.js');

function cli(args: string[], database: string) {
  const { DATABASE_URL: _, ...env } = process.env;
  const r = spawnSync(process.execPath, [BIN, ...args, '--database', database], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('storefront key: scopes, expiry, roll', () => {
  test('create with scopes and expiry, list them, roll with an overlap', () => {
    const db = `sqlite:${join(mkdtempSync(join(tmpdir(), 'storefront-keys-')), 'store.db')}`;
    assert.equal(cli(['project', 'create', 'acme', '--name', 'Acme', '--currency', 'EUR'], db).code, 0);
    const start = Math.floor(Date.now() / 1000);
    const made = cli(
      ['key', 'create', 'acme', '--label', 'site build', '--scopes', 'products:read_hidden', '--expires-in', '90d'],
      db,
    );
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^sfk_[0-9A-Za-z]{38}\n$/);
    const before = Math.floor(Date.now() / 1000);
    const [row] = cli(['key', 'list', 'acme'], db)
      .stdout.trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(row.slice(0, 2), ['1', 'site build']);
    assert.equal(row[3], '');
    assert.equal(row[4], 'products:read_hidden');
    const created = Number(row[5]) - 90 * 86_400;
    assert.ok(created >= start && created <= before, row[5]);

    const rolled = cli(['key', 'roll', '1', '--overlap', '24h'], db);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.match(rolled.stdout, /^sfk_[0-9A-Za-z]{38}\n$/);
    assert.notEqual(rolled.stdout, made.stdout);
    assert.match(rolled.stderr, /key 1 rolled to key 2; key 1 stops working at \d{4}-\d\d-\d\dT/);
    const rows = cli(['key', 'list', 'acme'], db)
      .stdout.trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[4]]),
      [
        ['1', 'site build', 'products:read_hidden'],
        ['2', 'site build', 'products:read_hidden'],
      ],
    );
    const ends = Number(rows[0][5]) - 86_400;
    assert.ok(ends >= before && ends <= Date.now() / 1000, 'the old key ends with the overlap');
    assert.equal(cli(['key', 'roll', '1'], db).code, 0, 'no overlap: the old key stops at once');
    assert.deepEqual(
      cli(['key', 'list', 'acme'], db)
        .stdout.trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
      ['2', '3'],
    );
    const gone = cli(['key', 'roll', '1'], db);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /no live key with id 1/);
  });

  test('bad scopes and durations are usage errors on one line; every subcommand answers --help', () => {
    const db = `sqlite:${join(mkdtempSync(join(tmpdir(), 'storefront-keys-')), 'store.db')}`;
    for (const args of [
      ['key', 'create', 'acme', '--scopes', 'orders:delete'],
      ['key', 'create', 'acme', '--scopes', ''],
      ['key', 'create', 'acme', '--expires-in', '90'],
      ['key', 'create', 'acme', '--expires-in', '0d'],
      ['key', 'create', 'acme', '--expires-in', '3651d'],
      ['key', 'roll', '1', '--overlap', '31d'],
      ['key', 'roll', 'x'],
    ]) {
      const r = cli(args, db);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    for (const sub of ['create', 'list', 'revoke', 'roll']) {
      const help = cli(['key', sub, '--help'], db);
      assert.equal(help.code, 0, sub);
      assert.match(help.stdout, new RegExp(`^usage: storefront key ${sub}`));
    }
    assert.match(cli(['key', '--help'], db).stdout, /key roll +print a new key/);
  });

  test('on a terminal, key list is a table with a header row and ISO 8601 dates', () => {
    const table = keysAsTable([
      {
        id: 1,
        label: 'back office',
        scopes: [...SCOPES],
        created_at: 1_763_700_000,
        expires_at: null,
        last_used_at: null,
      },
      {
        id: 12,
        label: 'site\tbuild',
        scopes: ['products:read_hidden'],
        created_at: 1_763_700_000,
        expires_at: 1_771_476_000,
        last_used_at: 1_763_710_000,
      },
    ]);
    assert.equal(
      table,
      [
        'ID  LABEL        SCOPES                CREATED               EXPIRES               LAST USED',
        '1   back office  all                   2025-11-21T04:40:00Z  never                 never',
        '12  site build   products:read_hidden  2025-11-21T04:40:00Z  2026-02-19T04:40:00Z  2025-11-21T07:26:40Z',
        '',
      ].join('\n'),
    );
  });
});

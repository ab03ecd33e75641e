import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MIXED_PROJECT, mixedCatalog } from '../support/mixed-catalog.js';
import { adminQuery, freshDatabase } from '../support/pg-database.js';
import { runCli, startServe } from '../support/processes.js';
import { PG_SKIP } from '../support/storage.js';
import { suite } from '../support/suite.js';

// Every CLI command with DATABASE_URL=postgres://… , run as the real process. The import
// and export round trip is checked against SQLite: the same file in, the same bytes out.

// The timeout guards against a hang, not speed: on a loaded 2-core machine the suite has taken over 90 s.
suite('the CLI on PostgreSQL', { skip: PG_SKIP, timeout: 300_000 }, () => {
  test('project, import, export, key create/list/revoke, serve', async (t) => {
    const db = await freshDatabase(t, 'sf_cli');
    const env = { DATABASE_URL: db.url };
    const dir = mkdtempSync(join(tmpdir(), 'sf-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));

    const created = await runCli(['project', 'create', 'shop', '--name', 'Shop', '--currency', 'EUR'], env);
    assert.deepEqual(created, { code: 0, stdout: 'created project shop\n', stderr: '' });
    assert.equal((await runCli(['project', 'create', 'shop', '--name', 'Shop', '--currency', 'EUR'], env)).code, 1);

    const file = join(dir, 'mixed.json');
    writeFileSync(file, JSON.stringify(mixedCatalog()));
    const imported = await runCli(['import', file], env);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^imported into mixed: 6 categories, 40 products, 3 plans, 25 users, 30 orders \(/);

    // An NDJSON file streams in too; a bad record rolls the whole file back.
    const ndjson = join(dir, 'more.ndjson');
    writeFileSync(
      ndjson,
      [
        '{"type":"project","id":"mixed","name":"Mixed shop","currency":"EUR"}',
        '{"type":"product","handle":"extra","name":"Extra","price":5,"created_at":1780000000}',
        '',
      ].join('\n'),
    );
    const more = await runCli(['import', ndjson], env);
    assert.equal(more.code, 0, more.stderr);
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(
      bad,
      [
        '{"type":"project","id":"mixed","name":"Mixed shop","currency":"EUR"}',
        '{"type":"product","handle":"bad-one","name":"Bad","price":-1}',
      ].join('\n'),
    );
    const refused = await runCli(['import', bad], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /line 2: price/);
    const count = await adminQuery("select count(*)::int as n from products where project_id = 'mixed'", [], db.url);
    assert.equal(count.rows[0].n, 41);

    // Export from PostgreSQL = export from SQLite of the same imports, byte for byte.
    const exported = await runCli(['export', MIXED_PROJECT], env);
    assert.equal(exported.code, 0, exported.stderr);
    const sqlite = { DATABASE_URL: `sqlite:${join(dir, 'same.db')}` };
    assert.equal((await runCli(['import', file], sqlite)).code, 0);
    assert.equal((await runCli(['import', ndjson], sqlite)).code, 0);
    const fromSqlite = await runCli(['export', MIXED_PROJECT], sqlite);
    assert.equal(exported.stdout, fromSqlite.stdout);
    assert.equal(JSON.parse(exported.stdout).products.length, 41);
    // …and the export imports back into an empty PostgreSQL database unchanged.
    const again = await freshDatabase(t, 'sf_cli_again');
    writeFileSync(join(dir, 'export.json'), exported.stdout);
    assert.equal((await runCli(['import', join(dir, 'export.json')], { DATABASE_URL: again.url })).code, 0);
    assert.equal((await runCli(['export', MIXED_PROJECT], { DATABASE_URL: again.url })).stdout, exported.stdout);

    // Keys: created (printed alone), listed (never the key), used by a server, revoked.
    const made = await runCli(['key', 'create', MIXED_PROJECT, '--label', 'ci key'], env);
    assert.equal(made.code, 0, made.stderr);
    const key = made.stdout.trim();
    assert.match(made.stdout, /^sfk_[0-9A-Za-z]{38}\n$/);
    const listed = await runCli(['key', 'list', MIXED_PROJECT], env);
    const [id, label, createdAt, lastUsed] = listed.stdout.replace(/\n$/, '').split('\t');
    assert.deepEqual([label, lastUsed], ['ci key', '']);
    assert.match(id, /^\d+$/);
    assert.match(createdAt, /^\d{10}$/);
    assert.ok(!listed.stdout.includes(key));

    const server = await startServe(t, env);
    const res = await fetch(`${server.url}/v2/projects/${MIXED_PROJECT}/products/?fetch_hidden=true&perpage=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { meta: { total: number } }).meta.total, 41);
    const used = await runCli(['key', 'list', MIXED_PROJECT], env);
    assert.match(used.stdout.replace(/\n$/, '').split('\t')[3], /^\d{10}$/, 'last_used_at is set once the key is used');

    assert.deepEqual(await runCli(['key', 'revoke', id], env), { code: 0, stdout: `revoked key ${id}\n`, stderr: '' });
    const twice = await runCli(['key', 'revoke', id], env);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /no live key/);
    assert.equal((await runCli(['key', 'list', MIXED_PROJECT], env)).stdout, '');
    const after = await fetch(`${server.url}/v2/projects/${MIXED_PROJECT}/products/?fetch_hidden=true`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(after.status, 401);
  });

  test('an unreachable PostgreSQL: every command fails fast with one clear line', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const env = { DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/nowhere' };
    for (const args of [['migrate'], ['key', 'list', 'x'], ['export', 'x'], ['serve', '--port', '0']]) {
      const started = performance.now();
      const r = await runCli(args, env, 15_000);
      const took = performance.now() - started;
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `${args.join(' ')} says one line: ${r.stderr}`);
      assert.match(lines[0], /postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere.*ECONNREFUSED/);
      assert.ok(!r.stderr.includes('secret'), 'the password is never printed');
      assert.ok(took < 10_000, `${args.join(' ')} took ${Math.round(took)} ms`);
    }
  });
});

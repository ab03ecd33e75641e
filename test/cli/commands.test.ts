import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const BIN = join(process.cwd(), 'bin', 'storefront.js');

function tempDb(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'storefront-cli-')), 'store.db')}`;
}

function cli(args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _, ...base } = process.env;
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...base, ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('storefront CLI', () => {
  test('help, unknown commands and bad arguments', () => {
    const help = cli(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /usage: storefront <command>/);
    assert.equal(cli([]).code, 2);
    for (const args of [
      ['frobnicate'],
      ['key'],
      ['key', 'create'],
      ['key', 'create', 'a', 'b'],
      ['project', 'create', 'x'],
      ['serve', '--nope'],
      ['import'],
    ]) {
      const r = cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  test('migrate creates the schema once; a second run changes nothing', () => {
    const db = tempDb();
    const first = cli(['migrate', '--database', db]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /schema is up to date|applied/);
    const second = cli(['migrate', '--database', db]);
    assert.equal(second.code, 0);
    assert.match(second.stdout, /schema is up to date/);
    const bad = cli(['migrate', '--database', 'mysql://x']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unsupported storage URL/);
  });

  test('project create and keys: create, list, revoke', () => {
    const db = tempDb();
    const env = { DATABASE_URL: db };
    assert.equal(cli(['project', 'create', 'acme', '--name', 'Acme', '--currency', 'EUR'], env).code, 0);
    const dup = cli(['project', 'create', 'acme', '--name', 'Acme', '--currency', 'EUR'], env);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /already exists/);
    assert.equal(cli(['project', 'create', 'Bad!', '--name', 'x', '--currency', 'EUR'], env).code, 2);
    assert.equal(cli(['project', 'create', 'ok', '--name', 'x', '--currency', 'euro'], env).code, 2);
    assert.equal(cli(['project', 'create', 'ok', '--currency', 'EUR'], env).code, 2);

    const created = cli(['key', 'create', 'acme', '--label', 'back office'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^sfk_[0-9A-Za-z]{38}\n$/);
    cli(['key', 'create', 'acme'], env);
    const list = cli(['key', 'list', 'acme'], env);
    const rows = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[0].slice(0, 2), ['1', 'back office']);
    assert.match(rows[0][2], /^\d{10}$/);
    assert.equal(rows[0][3], ''); // never used
    assert.ok(!list.stdout.includes(created.stdout.trim()));
    assert.equal(cli(['key', 'revoke', '1'], env).code, 0);
    assert.equal(cli(['key', 'list', 'acme'], env).stdout.trim().split('\n').length, 1);
    assert.equal(cli(['key', 'revoke', '1'], env).code, 1);
    assert.equal(cli(['key', 'revoke', 'x'], env).code, 2);
    assert.equal(cli(['key', 'create', 'ghost'], env).code, 1);
  });

  test('import and export', () => {
    const db = tempDb();
    const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-files-'));
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        project: { id: 'acme', name: 'Acme', currency: 'USD' },
        products: [{ handle: 'a', name: 'A', price: 1 }],
      }),
    );
    const r = cli(['import', good, '--database', db]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^imported into acme: 0 categories, 1 product, 0 plans, 0 users, 0 orders/);

    const bad = join(dir, 'bad.ndjson');
    writeFileSync(
      bad,
      '{"type":"project","id":"beta","name":"B","currency":"USD"}\n{"type":"product","handle":"x","name":"X","price":-5}\n',
    );
    const failed = cli(['import', bad, '--database', db]);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /1 problem, nothing was imported\n {2}line 2: price must be an integer/);
    assert.equal(cli(['export', 'beta', '--database', db]).code, 1); // nothing was written

    const out = cli(['export', 'acme', '--database', db]);
    assert.equal(out.code, 0);
    const doc = JSON.parse(out.stdout);
    assert.equal(doc.products[0].handle, 'a');
    // --format ndjson: one record a line, the project first, importable again.
    const lines = cli(['export', 'acme', '--format', 'ndjson', '--database', db]);
    assert.equal(lines.code, 0);
    const records = lines.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; handle?: string });
    assert.equal(records[0].type, 'project');
    assert.equal(records.find((r) => r.type === 'product')?.handle, 'a');
    writeFileSync(join(dir, 'again.ndjson'), lines.stdout);
    assert.equal(cli(['import', join(dir, 'again.ndjson'), '--database', db]).code, 0);
    assert.equal(cli(['export', 'acme', '--format', 'xml', '--database', db]).code, 2);
    const missing = cli(['export', 'nope', '--database', db]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.equal(cli(['import', join(dir, 'none.json'), '--database', db]).code, 1);
  });

  test(
    'import shows progress on a terminal, and only there',
    { skip: spawnSync('script', ['--version']).status === 0 ? false : 'util-linux script is not installed' },
    () => {
      const db = tempDb();
      const dir = mkdtempSync(join(tmpdir(), 'storefront-cli-tty-'));
      const file = join(dir, 'many.ndjson');
      const lines = [JSON.stringify({ type: 'project', id: 'tty', name: 'TTY', currency: 'USD' })];
      for (let i = 1; i <= 25_000; i++)
        lines.push(JSON.stringify({ type: 'product', handle: `p-${i}`, name: `P ${i}`, price: i }));
      writeFileSync(file, lines.join('\n'));
      // `script` runs the command on a pseudo-terminal, as a person at a shell would.
      const tty = spawnSync(
        'script',
        ['-qec', `${process.execPath} ${BIN} import ${file} --database ${db}`, '/dev/null'],
        { encoding: 'utf8' },
      );
      assert.equal(tty.status, 0, tty.stdout);
      assert.match(tty.stdout, /read 10,000 records…/);
      assert.match(tty.stdout, /read 20,000 records…/);
      assert.match(tty.stdout, /imported into tty: 0 categories, 25000 products/);
      const piped = cli(['import', file, '--database', tempDb()]);
      assert.equal(piped.code, 0);
      assert.doesNotMatch(piped.stderr + piped.stdout, /read \d/);
    },
  );

  test('serve loads the demo into an empty database and its two curl lines work', async (t) => {
    const db = tempDb();
    const { DATABASE_URL: _, ...base } = process.env;
    const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database', db], {
      env: { ...base, LOG_LEVEL: 'warn' },
    });
    t.after(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    const deadline = Date.now() + 15_000;
    while (!/Try:\n.*\n.*\n/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const curls = out.split('\n').filter((l) => l.trim().startsWith('curl '));
    assert.equal(curls.length, 2, out);
    for (const line of curls) {
      const url = line.match(/'(http[^']+)'/)![1];
      const auth = line.match(/Authorization: Bearer (\S+)'/);
      const res = await fetch(url, { headers: auth ? { authorization: `Bearer ${auth[1]}` } : {} });
      assert.equal(res.status, 200, line);
      const body = (await res.json()) as { data: unknown[] };
      assert.ok(body.data.length > 0);
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  test('STOREFRONT_DEMO=0 serves an empty database without the demo', async (t) => {
    const db = tempDb();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database', db], {
      env: { ...process.env, STOREFRONT_DEMO: '0', LOG_LEVEL: 'info' },
    });
    t.after(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const deadline = Date.now() + 15_000;
    while (!out.includes('listening') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = JSON.parse(out.split('\n').find((l) => l.includes('listening'))!).msg.match(/http:\/\/\S+/)[0];
    assert.equal((await fetch(`${url}/v2/projects/demo/plans/`)).status, 404);
    assert.ok(!out.includes('Try:'));
  });
});

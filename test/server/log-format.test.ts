import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { ConfigError, loadConfig, resolveLogFormat } from '../../src/config.js';
import { testApp } from '../support/app.js';
import { freePort, runCli, startServe } from '../support/processes.js';
import { seedShop } from '../support/shop.js';

// `storefront serve` logs one readable line a request on a terminal (or with
// LOG_FORMAT=pretty) and pino's JSON lines anywhere else (or with LOG_FORMAT=json).

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const REQUEST_LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v2\/projects\/-\/plans\/\?x=1 404 \d+\.\d ms$/m;

function tempDatabase(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'sf-log-format-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'store.db')}`;
}

async function until(check: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('on a terminal (script(1) gives it one): one readable line a request, no JSON', { timeout: 60_000 }, async (t) => {
  const port = await freePort();
  const command = `exec '${process.execPath}' '${BIN}' serve --port ${port}`;
  // script runs the command on a pseudo-terminal and copies what it prints to our pipe.
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, DATABASE_URL: tempDatabase(t), STOREFRONT_DEMO: '0', LOG_LEVEL: 'info', LOG_FORMAT: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  t.after(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGKILL');
    await once(child, 'exit');
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await until(
    () => out.includes('Server listening'),
    () => out,
  );
  await fetch(`http://127.0.0.1:${port}/v2/projects/-/plans/?x=1`);
  await until(
    () => REQUEST_LINE.test(out.replace(ANSI, '').replace(/\r/g, '')),
    () => out,
  );
  assert.match(out, ANSI, 'a terminal gets colours');
  assert.ok(!out.includes('{"level"'), out);
  assert.ok(!out.includes('incoming request'), out);
});

test('LOG_FORMAT=pretty in a pipe: the same lines, no colours; errors readable', { timeout: 60_000 }, async (t) => {
  const server = await startServe(
    t,
    { DATABASE_URL: tempDatabase(t), LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
    { fullLog: true },
  );
  await fetch(`${server.url}/v2/projects/-/plans/?x=1`);
  await until(
    () => REQUEST_LINE.test(server.output()),
    () => server.output(),
  );
  const requestLines = server.output().match(/INFO: GET \/v2\/projects\/-\/plans\/\?x=1 /g) ?? [];
  assert.equal(requestLines.length, 1, 'one line for the request');
  assert.doesNotMatch(server.output(), ANSI);
  assert.ok(!server.output().includes('"reqId"'));
});

test('piped, with no LOG_FORMAT: pino JSON lines, two per request as before', { timeout: 60_000 }, async (t) => {
  const server = await startServe(
    t,
    { DATABASE_URL: tempDatabase(t), LOG_LEVEL: 'info', LOG_FORMAT: '' },
    { fullLog: true },
  );
  await fetch(`${server.url}/v2/projects/-/plans/?x=1`, { headers: { 'x-request-id': 'piped-1' } });
  await until(
    () => /"reqId":"piped-1"[^\n]*"request completed"/.test(server.output()),
    () => server.output(),
  );
  const lines = server
    .output()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { reqId?: string; msg: string; res?: { statusCode: number } });
  const mine = lines.filter((l) => l.reqId === 'piped-1');
  assert.deepEqual(
    mine.map((l) => l.msg),
    ['incoming request', 'request completed'],
  );
  assert.equal(mine[1].res?.statusCode, 404);
});

test('a LOG_FORMAT that is not json, pretty or auto stops serve at start with one clear line', async () => {
  const r = await runCli(['serve', '--port', '0'], { LOG_FORMAT: 'yaml' });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'storefront serve: LOG_FORMAT must be json, pretty or auto, got "yaml"\n');
  assert.throws(() => loadConfig({ LOG_FORMAT: 'Pretty' }), ConfigError);
  assert.equal(loadConfig({}).logFormat, 'auto');
  assert.equal(resolveLogFormat('auto', { isTTY: true }), 'pretty');
  assert.equal(resolveLogFormat('auto', {}), 'json');
  assert.equal(resolveLogFormat('json', { isTTY: true }), 'json');
});

test('the pretty format still redacts keys, and a failure is logged with its stack', async (t) => {
  let logs = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs += chunk;
      done();
    },
  });
  const { app, storage, key } = await testApp(t, 'sqlite', {
    logger: { level: 'info', stream } as never,
    logFormat: 'pretty',
  });
  await seedShop(storage);
  const good = await key('shop');
  await app.inject({
    url: '/v2/projects/shop/products/?fetch_hidden=true',
    headers: { authorization: `Bearer ${good}` },
  });
  app.log.info({ headers: { authorization: `Bearer ${good}` } }, 'headers logged');
  app.log.error({ err: new Error('the disk is gone') }, 'request failed');
  assert.match(logs, /INFO: GET \/v2\/projects\/shop\/products\/\?fetch_hidden=true 200 \d+\.\d ms\n/);
  assert.ok(!logs.includes(good.slice(4, 24)), 'a key never reaches a log');
  assert.match(logs, /INFO: headers logged \{"headers":\{"authorization":"\[redacted\]"\}\}/);
  assert.match(logs, /ERROR: request failed\s*\n\s+err: \{[\s\S]*the disk is gone[\s\S]*at /);
});

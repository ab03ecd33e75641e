import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../support/processes.js';

// The README's and docs/API.md's shell sessions, run in order, as a reader would follow them,
// against one fresh server started as `npm start` starts it (the demo loaded, the key it
// prints), so that a doc example that breaks fails here. A block is skipped when the line
// before its fence is `<!-- doc-test: skip (why) -->` (a placeholder, a command that runs
// until stopped). Every curl must reach the server and get no 5xx; a 4xx must be the one the
// block documents (`"status":409` in its text).

const ROOT = new URL('../../../', import.meta.url).pathname;
const FILES = ['README.md', 'docs/API.md'];

interface Block {
  where: string;
  text: string;
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    if (!/^<!-- doc-test: skip\b/.test(lines[i - 1] ?? ''))
      blocks.push({ where: `${file}:${i + 1}`, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The block as it runs here: this server's address and key, the CLI of this checkout. */
function localised(text: string, url: string, key: string): string {
  return text
    .replaceAll('http://127.0.0.1:3000', url)
    .replaceAll('localhost:3000', url)
    .replaceAll('{base_url}', url)
    .replaceAll('sfk_…', key)
    .replaceAll('<key>', key)
    .replaceAll('node bin/storefront.js', `node ${join(ROOT, 'bin/storefront.js')}`);
}

// Every curl reports its status on stderr, whatever the block does with its output.
const PRELUDE = `set -e -o pipefail
curl() { command curl -sS -w '%{stderr}@status %{http_code}\\n' "$@"; }
`;

async function startLikeNpmStart(dir: string): Promise<{ url: string; key: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin/storefront.js'), 'serve'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'shop.db')}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 120_000;
  while (!/shown only now\): (sfk_\S+)/.test(out) || !(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const key = /shown only now\): (sfk_\S+)/.exec(out)![1];
  return { url: `http://127.0.0.1:${port}`, key, stop: () => child.kill('SIGTERM') };
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

test("the README's and API.md's shell sessions run in order on a fresh npm start", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'doc-sessions-'));
  const server = await startLikeNpmStart(dir);
  t.after(() => {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const blocks = FILES.flatMap(blocksOf);
  assert.ok(blocks.length >= 8, `only ${blocks.length} sessions found`);
  for (const block of blocks) {
    const run = spawnSync('bash', ['-c', PRELUDE + localised(block.text, server.url, server.key)], {
      cwd: dir,
      env: { ...process.env, KEY: server.key, DATABASE_URL: `sqlite:${join(dir, 'shop.db')}` },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const said = `${block.where}\n${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, said);
    for (const [, status] of run.stderr.matchAll(/@status (\d+)/g)) {
      const code = Number(status);
      assert.ok(code >= 200 && code < 500, `${block.where}: a curl got ${status}\n${said}`);
      if (code >= 400)
        assert.ok(block.text.includes(`"status":${code}`), `${block.where}: an undocumented ${code}\n${said}`);
    }
  }
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../support/processes.js';

// `npm start` under a process manager: the manager knows npm's pid only, so a signal to npm
// must end the server too. npm runs the script through `sh -c`; without `exec` in the
// script, dash stays between npm and node, dies of the signal and leaves node serving.

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Whether something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the npm start process stops the server it started`, { timeout: 60_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sf-npm-start-'));
    const port = await freePort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(dir, 'store.db')}`,
        STOREFRONT_DEMO: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that whatever it leaves behind can be killed after the test.
      detached: true,
    });
    let log = '';
    npm.stdout.on('data', (d) => (log += d));
    npm.stderr.on('data', (d) => (log += d));
    const exited = once(npm, 'exit');
    t.after(() => {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone: nothing was left behind
      }
      rmSync(dir, { recursive: true, force: true });
    });

    const deadline = Date.now() + 30_000;
    while (!(await listening(port))) {
      assert.ok(Date.now() < deadline, `npm start did not listen on ${port} within 30 s:\n${log}`);
      assert.equal(npm.exitCode, null, `npm start exited early:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    npm.kill(signal); // npm alone, as a process manager does
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0, `npm start ends as the server does, cleanly:\n${log}`);
    // The port closes once node has finished its graceful shutdown (well within 10 s).
    const closeBy = Date.now() + 10_000;
    while (await listening(port)) {
      assert.ok(Date.now() < closeBy, `something still serves on ${port} after ${signal} to npm:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
}

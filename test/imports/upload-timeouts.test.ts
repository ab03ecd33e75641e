import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type Socket, connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { ConfigError, DEFAULT_LIMITS, loadConfig } from '../../src/config.js';
import { serverOptions } from '../../src/http/server-options.js';
import { eachBackend } from '../support/each-backend.js';
import { SHOP } from '../support/shop.js';
import { SHOP_LINE, importApp, ndjson, stateOf } from './support.js';

// An import upload is bounded by its progress, not by REQUEST_TIMEOUT_MS (a large file takes
// minutes): it may take as long as it needs while it keeps sending, and fails when it stalls
// for UPLOAD_IDLE_TIMEOUT_MS. Every other body keeps REQUEST_TIMEOUT_MS, on the same
// connection too once the upload is in.

const LIMITS = { requestTimeoutMs: 1000, headersTimeoutMs: 500, uploadIdleTimeoutMs: 1500 };

/** One raw keep-alive connection: requests are written by hand, byte by byte if need be. */
class Connection {
  private received = '';
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => {});
  }

  static async open(app: FastifyInstance): Promise<Connection> {
    const address = app.server.address();
    const socket = connect(typeof address === 'object' && address ? address.port : 0, '127.0.0.1');
    await once(socket, 'connect');
    return new Connection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next whole answer (its status and JSON body), or what came before the connection closed. */
  async answer(): Promise<{ status: number; body: unknown; raw: string }> {
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(this.received.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && this.received.length >= end + 4 + Number(length)) {
        const raw = this.received.slice(0, end + 4 + Number(length));
        this.received = this.received.slice(raw.length);
        return { status: Number(raw.slice(9, 12)), body: JSON.parse(raw.slice(end + 4)), raw };
      }
      if (this.closed) return { status: 0, body: undefined, raw: this.received };
      await sleep(20);
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function head(method: string, path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: 'x', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} /v2/projects/${SHOP}${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

function product(id: number) {
  return { type: 'product', id, handle: `trickled-${id}`, name: `Trickled ${id}`, price: id };
}

test('UPLOAD_IDLE_TIMEOUT_MS: 30 s unless set, a positive count; a silent socket outlives it', () => {
  assert.equal(loadConfig({}).limits.uploadIdleTimeoutMs, 30_000);
  assert.equal(loadConfig({ UPLOAD_IDLE_TIMEOUT_MS: '90000' }).limits.uploadIdleTimeoutMs, 90_000);
  for (const value of ['0', 'soon', '-5'])
    assert.throws(() => loadConfig({ UPLOAD_IDLE_TIMEOUT_MS: value }), ConfigError, value);
  // Else Node would destroy a stalled upload's socket before the 408 could be sent.
  for (const uploadIdleTimeoutMs of [1_000, 90_000]) {
    const limits = { ...DEFAULT_LIMITS, uploadIdleTimeoutMs };
    const options = serverOptions({ logger: false, limits, trustProxy: false });
    assert.ok(Number(options.connectionTimeout) > Math.max(uploadIdleTimeoutMs, limits.requestTimeoutMs));
  }
});

eachBackend('an import upload bounded by progress', (backend) => {
  test('an upload that keeps sending for longer than REQUEST_TIMEOUT_MS is imported; the next request on its connection is bounded again', async (t) => {
    const shop = await importApp(t, backend, { limits: LIMITS });
    await shop.app.listen({ port: 0, host: '127.0.0.1' });
    const connection = await Connection.open(shop.app);
    t.after(() => connection.close());

    const body = [ndjson(SHOP_LINE), ...Array.from({ length: 15 }, (_, i) => ndjson(product(300 + i)))];
    const auth = { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' };
    const started = Date.now();
    connection.write(head('POST', '/imports/', { ...auth, 'content-length': String(body.join('').length) }));
    for (const line of body) {
      connection.write(line);
      await sleep(200);
    }
    const upload = await connection.answer();
    const took = Date.now() - started;
    assert.equal(upload.status, 202, upload.raw);
    assert.ok(took > 2 * LIMITS.requestTimeoutMs, `the upload took ${took} ms`);
    const id = (upload.body as { id: number }).id;
    assert.equal(((await shop.finished(id)).body as { status: string }).status, 'succeeded');
    assert.equal((await shop.send('GET', '/products/314')).status, 200);

    // The same connection, an ordinary body sent as slowly: cut off at REQUEST_TIMEOUT_MS.
    const json = { authorization: auth.authorization, 'content-type': 'application/json', 'content-length': '40' };
    const slowStarted = Date.now();
    connection.write(head('POST', '/products/300', json) + '{');
    const drip = setInterval(() => connection.write(' '), 100);
    t.after(() => clearInterval(drip));
    const slow = await connection.answer();
    clearInterval(drip);
    const slowTook = Date.now() - slowStarted;
    assert.equal(slow.status, 408, slow.raw);
    assert.deepEqual(slow.body, {
      error: { status: 408, code: 'request_timeout', message: 'the request did not arrive in time' },
    });
    assert.ok(slowTook >= LIMITS.requestTimeoutMs && slowTook < 4 * LIMITS.requestTimeoutMs, `cut at ${slowTook} ms`);
  });

  test('an upload that stalls for UPLOAD_IDLE_TIMEOUT_MS is 408: no job, no spool file, nothing written', async (t) => {
    const shop = await importApp(t, backend, { limits: LIMITS });
    await shop.app.listen({ port: 0, host: '127.0.0.1' });
    const before = await stateOf(shop.storage);
    const connection = await Connection.open(shop.app);
    t.after(() => connection.close());

    // A whole, valid file, but the declared length says more is coming, and nothing comes.
    const file = ndjson(SHOP_LINE, product(400));
    const headers = { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' };
    const started = Date.now();
    connection.write(head('POST', '/imports/', { ...headers, 'content-length': String(file.length + 10) }) + file);
    await sleep(300);
    assert.equal(shop.spooled().length, 1, 'the upload is being spooled');
    const answer = await connection.answer();
    const took = Date.now() - started;
    assert.equal(answer.status, 408, answer.raw);
    assert.deepEqual(answer.body, {
      error: {
        status: 408,
        code: 'request_timeout',
        message: `the upload stalled: no byte of it arrived for ${LIMITS.uploadIdleTimeoutMs} ms (UPLOAD_IDLE_TIMEOUT_MS); nothing was imported`,
        details: [{ field: 'body', message: `sent nothing for ${LIMITS.uploadIdleTimeoutMs} ms` }],
      },
    });
    assert.ok(took >= LIMITS.uploadIdleTimeoutMs, `answered after ${took} ms`);
    assert.match(answer.raw, /\r\nconnection: close\r\n/i);
    for (let i = 0; i < 100 && !connection.closed; i++) await sleep(20);
    assert.ok(connection.closed, 'the server closed the connection');
    assert.deepEqual(shop.spooled(), []);
    assert.deepEqual((await shop.send('GET', '/imports/')).body, { data: [] });
    assert.deepEqual(await stateOf(shop.storage), before);
    assert.equal((await shop.send('GET', '/products/400')).status, 404);
  });
});

test('UPLOAD_MIN_BYTES_PER_SECOND: 500 unless set, 0 turns it off', () => {
  assert.equal(loadConfig({}).limits.uploadMinBytesPerSecond, 500);
  assert.equal(loadConfig({ UPLOAD_MIN_BYTES_PER_SECOND: '0' }).limits.uploadMinBytesPerSecond, 0);
  assert.equal(loadConfig({ UPLOAD_MIN_BYTES_PER_SECOND: '2048' }).limits.uploadMinBytesPerSecond, 2048);
  for (const value of ['fast', '-5', '1.5'])
    assert.throws(() => loadConfig({ UPLOAD_MIN_BYTES_PER_SECOND: value }), ConfigError, value);
});

// HTTP only (the spool is the same for both backends).
test('an upload that keeps sending, but slower than UPLOAD_MIN_BYTES_PER_SECOND, is 408: no job, no spool file', async (t) => {
  // 1,000 bytes a second judged over 400 ms windows: a few bytes every 100 ms is far below.
  const imports = { minBytesPerSecond: 1000, rateWindowMs: 400 };
  const shop = await importApp(t, 'sqlite', { limits: LIMITS, imports });
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  const before = await stateOf(shop.storage);
  const connection = await Connection.open(shop.app);
  t.after(() => connection.close());
  const file = ndjson(SHOP_LINE, product(600));
  const headers = { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' };
  connection.write(head('POST', '/imports/', { ...headers, 'content-length': String(file.length) }));
  let sent = 0;
  const drip = setInterval(() => connection.write(file.slice(sent, (sent += 4))), 100);
  t.after(() => clearInterval(drip));
  const answer = await connection.answer();
  clearInterval(drip);
  assert.equal(answer.status, 408, answer.raw);
  assert.match(
    (answer.body as { error: { message: string } }).error.message,
    /^the upload was too slow: \d+ bytes arrived in 400 ms, under 1000 bytes a second \(UPLOAD_MIN_BYTES_PER_SECOND\); nothing was imported$/,
  );
  assert.ok(sent < file.length, 'cut before the file was in');
  assert.deepEqual(shop.spooled(), []);
  assert.deepEqual((await shop.send('GET', '/imports/')).body, { data: [] });
  assert.deepEqual(await stateOf(shop.storage), before);
});

// HTTP only: one backend is enough.
test('Prefer: wait longer than the idle limit of a socket still gets its answer', async (t) => {
  // A silent socket is closed after max(REQUEST_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS) + 5 s: 6 s here.
  const limits = { requestTimeoutMs: 1000, headersTimeoutMs: 500, uploadIdleTimeoutMs: 1000 };
  const shop = await importApp(t, 'sqlite', { limits, imports: { beforeRun: () => sleep(7000) } });
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  const connection = await Connection.open(shop.app);
  t.after(() => connection.close());
  const file = ndjson(SHOP_LINE, product(500));
  const headers = { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' };
  connection.write(head('POST', '/imports/', { ...headers, prefer: 'wait=10', 'content-length': String(file.length) }));
  connection.write(file);
  const answer = await connection.answer();
  assert.equal(answer.status, 200, answer.raw || 'the connection was closed without an answer');
  assert.equal((answer.body as { status: string }).status, 'succeeded');
});

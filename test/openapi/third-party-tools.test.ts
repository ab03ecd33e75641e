import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { eachBackend } from '../support/each-backend.js';
import { sharedLiveServer } from '../support/live-server.js';
import { freePort } from '../support/processes.js';

// The served document as tools nobody here wrote read it (issue 13):
// - @apidevtools/swagger-parser validates it and dereferences every $ref with cycles refused,
//   as Portman and most generators do ("Circular $ref pointer" failed them before);
// - Stoplight Prism's validating proxy (`prism proxy --errors`) stands between a client and
//   the real server, and refuses any request or answer that breaks the document. Through
//   it go requests built only from the document's own examples, the way Dredd builds them:
//   an operation or parameter without an example cannot be called, an example that breaks
//   its schema is refused by Prism, and an answer that breaks the document is a Prism error.

type Json = Record<string, any>;

const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

interface Prism {
  url: string;
  child: ChildProcess;
}

/** `prism proxy <document URL> <server>`: resolves once Prism says it is listening. */
async function startPrism(documentUrl: string, upstream: string): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', documentUrl, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`prism did not start in 30 s:\n${output}`)), 30_000).unref();
  });
  await listening;
  return { url: `http://127.0.0.1:${port}`, child };
}

interface Call {
  operationId: string;
  method: string;
  path: string;
  body?: unknown;
  needsKey: boolean;
}

/** One request per operation, every value taken from the document's examples. */
function callsFromExamples(document: Json): Call[] {
  const calls: Call[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${template}`;
      let path = template;
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        assert.notEqual(parameter.example, undefined, `${where}: ${parameter.in} ${parameter.name} has no example`);
        // Optional headers (If-None-Match, If-Match …) change what is asked; a contract
        // runner sends what is required, and every query example.
        if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, String(parameter.example));
        if (parameter.in === 'query') query.set(parameter.name, String(parameter.example));
      }
      let body: unknown;
      if (operation.requestBody) {
        body = operation.requestBody.content['application/json'].example;
        assert.notEqual(body, undefined, `${where}: the body has no example`);
      }
      const needsKey = (operation.security ?? []).length > 0 && !operation.security.some((s: Json) => !s.bearerAuth);
      calls.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: query.size ? `${path}?${query}` : path,
        body,
        needsKey,
      });
    }
  }
  return calls;
}

eachBackend('third-party OpenAPI tools against the served document', (backend) => {
  const server = sharedLiveServer(backend, 'demo');
  let document: Json;
  let prism: Prism;

  before(async () => {
    document = (await (await fetch(`${server.baseUrl}/v2/openapi.json`)).json()) as Json;
    prism = await startPrism(`${server.baseUrl}/v2/openapi.json`, server.baseUrl);
  });
  after(async () => {
    if (!prism || prism.child.exitCode !== null) return;
    prism.child.kill();
    await once(prism.child, 'exit');
  });

  test('swagger-parser: valid, and every $ref dereferences with cycles refused', async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
    const dereferenced = (await SwaggerParser.dereference(structuredClone(document) as never, {
      dereference: { circular: false },
    })) as Json;
    assert.doesNotMatch(JSON.stringify(dereferenced), /"\$ref"/);
  });

  test('Prism proxy: requests made of the examples, and their answers, all match the document', async () => {
    // The document's key_id example is the demo's key, which the walk itself uses: revoking it
    // would end the walk. As a contract runner's hook would, revokeKey gets the id of the key
    // that createKey (earlier in the walk) made instead; rollKey keeps the example (the old
    // key goes on working through the overlap). Deleting the webhook endpoint the walk made
    // would leave the next webhook calls nothing to work on, and a message to replay exists
    // only once a change was delivered: those two are checked by their own suite
    // (test/webhooks/), through the app builder.
    // An import's cancel needs an import still waiting, which the walk cannot hold
    // (test/imports/ cancels queued and running ones).
    // The admin API needs an admin key, which the walk's server does not hand out; test/shops/
    // calls it, and the app builder checks its answers against the document.
    const skipped = [
      'deleteWebhook',
      'replayWebhookMessage',
      'cancelImport',
      'createProject',
      'listProjects',
      'deleteProject',
    ];
    const calls = callsFromExamples(document).filter((c) => !skipped.includes(c.operationId));
    assert.equal(calls.length, 34);
    assert.ok(
      calls.findIndex((c) => c.operationId === 'createKey') < calls.findIndex((c) => c.operationId === 'revokeKey'),
    );
    let createdKeyId: number | undefined;
    for (const call of calls) {
      if (call.operationId === 'revokeKey') {
        const example = /\/keys\/([^/]+)\/revoke$/.exec(call.path)![1];
        assert.ok(createdKeyId !== undefined && String(createdKeyId) !== example, 'revokes a key of its own making');
        call.path = call.path.replace(`/keys/${example}/revoke`, `/keys/${createdKeyId}/revoke`);
      }
      const headers: Record<string, string> = {};
      if (call.needsKey) headers.authorization = `Bearer ${server.key}`;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      const init = {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      };
      const answer = await fetch(`${prism.url}${call.path}`, init);
      const text = await answer.text();
      // Prism answers a violation itself, as application/problem+json.
      assert.doesNotMatch(String(answer.headers.get('content-type')), /problem\+json/, `${call.operationId}: ${text}`);
      assert.equal(
        answer.headers.get('sl-violations'),
        null,
        `${call.operationId}: ${answer.headers.get('sl-violations')}`,
      );
      // An upload is a job: 202 Accepted.
      assert.ok(
        answer.status === 200 ||
          answer.status === 201 ||
          (call.operationId === 'createImport' && answer.status === 202),
        `${call.operationId} ${call.method} ${call.path}: ${answer.status} ${text}`,
      );
      if (call.operationId === 'createKey') createdKeyId = (JSON.parse(text) as { id: number }).id;
      if (call.operationId === 'revokeKey') assert.equal((JSON.parse(text) as { id: number }).id, createdKeyId);
    }
  });

  test('Prism proxy: error answers match the document too', async () => {
    const key = { authorization: `Bearer ${server.key}` };
    for (const [path, status, headers] of [
      ['/v2/projects/demo/products/999999', 404, {}],
      ['/v2/projects/demo/categories/no-such-category', 404, {}],
      ['/v2/projects/nowhere/plans/', 404, {}],
      ['/v2/projects/demo/orders/999999', 404, key],
    ] as const) {
      const answer = await fetch(`${prism.url}${path}`, { headers });
      const text = await answer.text();
      assert.equal(answer.status, status, `${path}: ${text}`);
      assert.equal(JSON.parse(text).error.status, status, path);
    }
  });

  test('the example order update is safe: it neither cancels nor archives', async () => {
    const orders = await fetch(`${server.baseUrl}/v2/projects/demo/orders/1001`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    const order = (await orders.json()) as Json;
    // the update of the example did happen (so the example was really sent), and did no harm
    assert.equal(order.fulfillment_status, 'shipped');
    assert.equal(order.is_canceled, false);
    assert.equal(order.is_archived, false);
  });
});

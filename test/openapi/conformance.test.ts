import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Response } from 'light-my-request';
import { ConformanceChecker } from '../support/openapi-conformance.js';
import { testApp } from '../support/app.js';

// The check that testApp runs on every answer must itself fail on what the document does
// not describe; these answers are made up so that each kind of mismatch is seen once.

async function checker(t: TestContext): Promise<ConformanceChecker> {
  const { app } = await testApp(t, 'sqlite');
  return new ConformanceChecker((await app.inject({ method: 'GET', url: '/v2/openapi.json' })).json());
}

function answer(
  method: string,
  url: string,
  statusCode: number,
  body?: unknown,
  headers: Record<string, string> = {},
): Response {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const contentType: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' };
  return {
    raw: { req: { method, url } },
    statusCode,
    headers: { ...contentType, ...headers },
    payload,
    rawPayload: Buffer.from(payload),
  } as unknown as Response;
}

const error = (status: number, code: string) => ({ error: { status, code, message: 'x' } });
const plans = '/v2/projects/shop/plans/';

test('documented answers pass', async (t) => {
  const c = await checker(t);
  c.check(answer('GET', `${plans}?x=1`, 200, { data: [] }));
  c.check(answer('GET', '/v2/projects/shop/plans', 404, error(404, 'not_found')));
  c.check(answer('GET', plans, 304));
  c.check(answer('HEAD', plans, 200));
  c.check(answer('DELETE', plans, 405, error(405, 'method_not_allowed'), { allow: 'GET, HEAD, OPTIONS' }));
  c.check(answer('GET', '/nowhere', 404, error(404, 'not_found')));
  c.check(answer('OPTIONS', plans, 204));
});

test('a status the operation does not document fails', async (t) => {
  const c = await checker(t);
  assert.throws(
    () => c.check(answer('GET', plans, 418, error(400, 'invalid_request'))),
    /status 418 is not documented/,
  );
  assert.throws(() => c.check(answer('GET', plans, 201, { data: [] })), /status 201 is not documented/);
});

test('a body that breaks the documented schema fails', async (t) => {
  const c = await checker(t);
  assert.throws(
    () => c.check(answer('GET', plans, 200, { data: [{ id: 'one' }] })),
    /does not match the documented schema/,
  );
  assert.throws(() => c.check(answer('GET', plans, 200, { plans: [] })), /does not match the documented schema/);
  assert.throws(
    () => c.check(answer('GET', plans, 404, { message: 'not found' })),
    /does not match the documented schema/,
  );
  assert.throws(() => c.check(answer('GET', plans, 304, { data: [] })), /describes no body/);
});

test('a path or method the document does not know must be 404 or 405 with the right Allow', async (t) => {
  const c = await checker(t);
  assert.throws(() => c.check(answer('GET', '/nowhere', 200, {})), /must be 404/);
  assert.throws(() => c.check(answer('DELETE', plans, 200, { data: [] })), /must be 405/);
  assert.throws(
    () => c.check(answer('DELETE', plans, 405, error(405, 'method_not_allowed'), { allow: 'GET, POST, OPTIONS' })),
    /differs from the documented methods/,
  );
});

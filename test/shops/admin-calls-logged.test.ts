import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAdminKey } from '../../src/keys/admin.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { logCapture } from '../support/log-capture.js';
import { bearer, call } from '../support/request.js';

// CONTRACT 19: "Admin calls are logged with the key id". Every admin call (create, list,
// delete) leaves a line naming the key that made it, by its id, never the key itself.

const P = '/v2/projects';

eachBackend('admin calls logged', (backend) => {
  test('create, list and delete each log the admin key id, never the key', async (t) => {
    const log = logCapture();
    const { app, storage } = await testApp(t, backend, { logger: { level: 'info', stream: log.stream } as never });
    const made = await createAdminKey(storage.db, 'ops');
    const admin = bearer(made.key);
    const keyId = `admin-key:${made.info.id}`;

    assert.equal(
      (await call(app, 'POST', `${P}/`, { headers: admin, body: { id: 'acme', name: 'A', currency: 'EUR' } })).status,
      201,
    );
    assert.equal((await call(app, 'GET', `${P}/?perpage=5`, { headers: admin })).status, 200);
    const gone = await call(app, 'DELETE', `${P}/acme`, { headers: { ...admin, 'confirm-delete': 'acme' } });
    assert.equal(gone.status, 204);
    // A refused call runs no admin handler: nothing logged as an admin call.
    const wrong = bearer(`${made.key.slice(0, -1)}${made.key.endsWith('x') ? 'y' : 'x'}`);
    assert.equal((await call(app, 'GET', `${P}/`, { headers: wrong })).status, 401);

    const lines = log.lines() as { msg?: string; admin_key?: string; project?: string }[];
    const adminLines = lines.filter((l) => l.msg?.startsWith('admin: '));
    assert.deepEqual(
      adminLines.map((l) => [l.msg, l.admin_key, l.project]),
      [
        ['admin: project created', keyId, 'acme'],
        ['admin: projects listed', keyId, undefined],
        ['admin: project deleted', keyId, 'acme'],
      ],
    );
    assert.ok(!log.text().includes(made.key), 'the admin key itself is never logged');
    assert.ok(!log.text().includes(made.key.slice(6, 26)));
  });
});

// A test suite's own sandbox with node:test: `node --test examples/sandbox-node-test.test.mjs`
// (docs/sandbox.md). The sandbox starts from the fixture beside this file, with its clock at a
// time of the test's choosing; each test starts from the fixture again.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'edp/sandbox';

const CHIEF = 'Basic ' + Buffer.from('chief@acme.test:fixture-secret').toString('base64');
let sandbox;

before(async () => {
  sandbox = await startSandbox({
    fixture: fileURLToPath(new URL('./sandbox-fixture.yaml', import.meta.url)),
    clock: '2026-01-05T09:00:00Z',
  });
});
beforeEach(() => sandbox.reset());
after(() => sandbox.close());

const workspaces = async () => {
  const answer = await fetch(`${sandbox.url}/api/v3/workspaces`, { headers: { authorization: CHIEF } });
  return (await answer.json()).results.map((w) => w.title);
};

test("the fixture's workspaces are there, at the fixture's time", async () => {
  assert.deepEqual(await workspaces(), ['Acme Retail', 'Globex Media']);
  const answer = await fetch(`${sandbox.url}/api/v3/workspaces`, { headers: { authorization: CHIEF } });
  assert.equal(answer.headers.get('date'), 'Mon, 05 Jan 2026 09:00:00 GMT');
});

test('a workspace made in one test is gone in the next', async () => {
  const made = await fetch(`${sandbox.url}/api/v3/workspaces`, {
    method: 'POST',
    headers: { authorization: CHIEF, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Made in a test' }),
  });
  assert.equal(made.status, 201);
  await sandbox.reset();
  assert.deepEqual(await workspaces(), ['Acme Retail', 'Globex Media']);
});

test('time moves only when the test moves it', async () => {
  await sandbox.advance(3600);
  const answer = await fetch(`${sandbox.url}/api/v3/workspaces`, { headers: { authorization: CHIEF } });
  assert.equal(answer.headers.get('date'), 'Mon, 05 Jan 2026 10:00:00 GMT');
});

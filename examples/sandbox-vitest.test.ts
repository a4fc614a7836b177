// A test suite's own sandbox with vitest (docs/sandbox.md): the sandbox starts from a fixture
// given as an object, with its clock at a time of the test's choosing; each test starts from the
// fixture again. Run here with `npx vitest run --config examples/vitest.config.mjs`.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startSandbox, type SandboxFixture, type TestSandbox } from 'edp/sandbox';

const fixture: SandboxFixture = {
  agency: { username: 'chief@acme.test', password: 'fixture-secret' },
  workspaces: [
    {
      title: 'Acme Retail',
      connections: [{ data_source: 'google_ads', accounts: [{ remote_id: '123-456-7801' }] }],
      webhooks: [{ url: 'https://hooks.acme.test/edp', events: ['load_completed'] }],
    },
  ],
};
const chief = { authorization: `Basic ${btoa('chief@acme.test:fixture-secret')}` };

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ fixture, clock: new Date('2026-01-05T09:00:00Z') });
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

const titles = async (): Promise<string[]> => {
  const answer = await fetch(`${sandbox.url}/api/v3/workspaces`, { headers: chief });
  const { results } = (await answer.json()) as { results: Array<{ title: string }> };
  return results.map((w) => w.title);
};

it("starts from the fixture's agency", async () => {
  expect(await titles()).toEqual(['Acme Retail']);
});

it('starts each test from the fixture again', async () => {
  const made = await fetch(`${sandbox.url}/api/v3/workspaces`, {
    method: 'POST',
    headers: { ...chief, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Made in a test' }),
  });
  expect(made.status).toBe(201);
  await sandbox.reset();
  expect(await titles()).toEqual(['Acme Retail']);
});

it('moves its clock only when told', async () => {
  await sandbox.advance(90);
  const answer = await fetch(`${sandbox.url}/api/v3/workspaces`, { headers: chief });
  expect(answer.headers.get('date')).toBe('Mon, 05 Jan 2026 09:01:30 GMT');
});

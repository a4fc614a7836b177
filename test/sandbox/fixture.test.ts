import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFixture, type Sandbox } from '../../src/sandbox/index.js';
import type { FixtureInput } from '../../src/sandbox/fixture/schema.js';
import { parseDocument } from '../../src/util/document.js';
import { cli, http, sandbox } from '../helpers.js';

/**
 * A sandbox started from a fixture (examples/sandbox-fixture.yaml): what the API shows is the
 * fixture's, not the demo data, and a reset returns to it.
 */

const FILE = 'examples/sandbox-fixture.yaml';
const CHIEF: [string, string] = ['chief@acme.test', 'fixture-secret'];
const env = { EDP_USERNAME: CHIEF[0], EDP_PASSWORD: CHIEF[1] };

async function fixtureOf(text: string, name = FILE) {
  return checkFixture(await parseDocument(text, 'fixture', name), 'fixture', { text, name });
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ fixture: await fixtureOf(readFileSync(FILE, 'utf8')) });
});
afterAll(async () => sb.close());

const token = async (workspaceId: number) =>
  (await http(sb, 'POST', '/api/v3/token', { basic: CHIEF, body: { workspace_id: workspaceId } })).body.token as string;

describe('a sandbox from a fixture', () => {
  it("holds the fixture's workspaces, with the ids it gives and the next ones for the others", async () => {
    const r = await cli(sb, ['workspaces', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().map((w: any) => [w.id, w.title])).toEqual([
      [101, 'Acme Retail'],
      [102, 'Globex Media'],
    ]);
    // The demo chief is not there: the fixture's is.
    expect((await http(sb, 'GET', '/api/v3/workspaces/', { basic: true })).status).toBe(401);
  });

  it('has its connections and accounts by remote id, its destination, extract, recipe and webhook endpoint', async () => {
    const t = await token(101);
    const [connection] = (await http(sb, 'GET', '/api/v3/datasources/google_ads/connections', { token: t })).body
      .results;
    expect(connection.accounts_number).toBe(3);
    const accounts = (await http(sb, 'GET', `/api/v3/connections/${connection.id}/accounts`, { token: t })).body
      .results;
    expect(accounts.map((a: any) => [a.account_id, a.title, a.is_active])).toEqual([
      ['123-456-7801', 'Brand', true],
      ['123-456-7802', 'Account 123-456-7802', true],
      ['123-456-7803', 'Account 123-456-7803', false],
    ]);
    const recipes = (await cli(sb, ['-w', '101', 'recipes', 'list', '--json'], { env })).json();
    expect(recipes.map((r: any) => [r.title, r.state])).toEqual([['Paid Media Performance', 'ready_to_work']]);
    const hooks = (await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token: t })).body.results;
    expect(hooks.map((h: any) => [h.url, h.event_types, h.status])).toEqual([
      ['https://hooks.acme.test/edp', ['load_completed', 'recipe_activated'], 'active'],
    ]);
    const s = sb.store.state;
    expect(s.extracts.map((e) => [e.workspace_id, e.status, e.title])).toEqual([
      [101, 'completed', 'Google Ads Campaign performance - Brand'],
    ]);
    expect(s.destination_connections.map((d) => [d.workspace_id, d.title, d.connection_params])).toEqual([
      [101, 'Lake', { bucket: 'acme-retail-lake', region: 'us-east-1' }],
    ]);
    // The second workspace holds nothing; the demo's links, loads and users are not there.
    expect(s.connections.filter((c) => c.workspace_id === 102)).toEqual([]);
    expect(s.external_auth_links).toEqual([]);
    expect(s.loads).toEqual([]);
    expect(s.users.map((u) => u.email)).toEqual(['chief@acme.test', 'analyst@acme.test']);
    expect(s.events).toEqual([]);
  });

  it('gives a member the role the fixture names, custom roles included', async () => {
    const roles = (await cli(sb, ['roles', 'list', '--json'], { env })).json();
    const buyer = roles.find((r: any) => r.title === 'Media Buyer');
    expect(buyer).toMatchObject({ is_system: false, user_count: 1 });
    const analyst = (
      await http(sb, 'POST', '/api/v3/token', { basic: ['analyst@acme.test', 'sandbox'], body: { workspace_id: 102 } })
    ).status;
    expect(analyst).toBe(400);
  });

  it('returns to the fixture on POST /_sandbox/reset, not to the demo data', async () => {
    const made = await http(sb, 'POST', '/api/v3/workspaces', { basic: CHIEF, body: { title: 'Made in a test' } });
    expect(made.status, made.text).toBe(201);
    expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
    const titles = (await http(sb, 'GET', '/api/v3/workspaces', { basic: CHIEF })).body.results.map(
      (w: any) => w.title,
    );
    expect(titles).toEqual(['Acme Retail', 'Globex Media']);
  });
});

describe('a fixture that names what it lacks', () => {
  it('is refused with every problem at its line and column, the nearest name suggested', async () => {
    const text = [
      'agency: {username: a@b.test, password: x}',
      'workspaces:',
      '  - title: One',
      '    connections:',
      '      - data_source: gogle_ads',
      '    recipes:',
      '      - template: Paid Media Performanse',
      '        sources: [{data_source: google_ads, accounts: [remote:1]}]',
      'users:',
      '  - email: u@b.test',
      '    workspaces: [Two]',
    ].join('\n');
    const err = await fixtureOf(text, 'bad.yaml').then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^fixture bad\.yaml is not a valid sandbox fixture:/);
    expect(err?.message).toContain(
      'bad.yaml:5:9: workspaces[0].connections[0].data_source: unknown data source "gogle_ads"',
    );
    expect(err?.message).toContain('did you mean "google_ads"?');
    expect(err?.message).toContain(
      'bad.yaml:7:9: workspaces[0].recipes[0].template: no recipe template "Paid Media Performanse"',
    );
    expect(err?.message).toContain('did you mean "Paid Media Performance"?');
    expect(err?.message).toContain('bad.yaml:11:18: users[0].workspaces[0]: no workspace "Two" in workspaces');
  });

  it('is refused for its shape first, naming the key and the keys known', async () => {
    const fixture: FixtureInput = { agency: { username: 'a@b.test', password: 'x' }, workspaces: [] };
    const err = await checkFixture({ ...fixture, workspace: [] }, 'fixture').then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('workspace: unknown key');
    expect(err?.message).toContain('did you mean "workspaces"?');
    expect(err?.message).toContain('workspaces: needs at least one workspace');
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { requireBuild } from './helpers.js';
import { limitConcurrentTests } from './concurrency.js';
import { operatorProfile } from './operator-profile.js';

// The built command line (its bundle, run in this process: what it sends, reads and prints is the
// subject): recipes, webhooks and roles, with every --file of these groups read as JSON and as
// YAML. The tests run a few at a time, each with a config folder of its own (a copy of one
// logged-in profile holding the workspaces' tokens), in the sandbox of this file: none of them
// changes what another one checks.

limitConcurrentTests();

const dir = tempDir('edp-e2e-recipes-');
let sb: Sandbox;
let profile: Awaited<ReturnType<typeof operatorProfile>>;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
  profile = await operatorProfile(sb.url, dir.dir, [101, 102, 103]);
});
afterAll(async () => {
  await sb.close();
  dir.remove();
});
/** Runs the built tool as the operator, with a config folder of the calling test's own. */
function operator() {
  const config = profile.fresh();
  return (argv: string[]) => runBuiltInProcess(argv, { env: profile.env(config) });
}
function file(name: string, text: string): string {
  const path = join(dir.dir, name);
  writeFileSync(path, text);
  return path;
}
/** The google_ads connection of a demo workspace and its active accounts. */
function googleAds(ws: number): { connection: number; accounts: number[] } {
  const { connections, accounts } = sb.store.state;
  const connection = connections.find((c) => c.workspace_id === ws && c.datasource_name === 'google_ads')!.id;
  return {
    connection,
    accounts: accounts.filter((a) => a.connection_id === connection && a.is_active).map((a) => a.id),
  };
}
const recipe = (id: string) => sb.store.state.recipes.find((r) => r.id === id)!;

describe.concurrent('edp recipes, built', () => {
  it('templates', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['-w', '101', 'recipes', 'templates', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((t: { id: number }) => t.id)).toContain(4001);
  });

  it('create, then configure --file as JSON, then append with --file as YAML', async ({ expect }) => {
    const edp = operator();
    const created = await edp([
      '-w',
      '101',
      'recipes',
      'create',
      '--template',
      '4001',
      '--title',
      'Built binary',
      '--json',
    ]);
    expect(created.code).toBe(0);
    // Recipe ids are beyond 2^53: read as text.
    const id = /"recipe_id": (\d+)/.exec(created.stdout)![1]!;
    const {
      connection,
      accounts: [a, b],
    } = googleAds(101);
    const json = file(
      'configure.json',
      JSON.stringify({
        data_sources: ['google_ads'],
        connections: [{ connection_id: connection, connection_data_source: 'google_ads', accounts: [{ id: a }] }],
      }),
    );
    const first = await edp(['-w', '101', 'recipes', 'configure', id, '--file', json]);
    expect(first.code).toBe(0);
    expect(recipe(id).connections[0]!.account_ids).toEqual([a]);
    const yaml = file(
      'configure.yaml',
      `data_sources: [google_ads]\nconnections:\n  - connection_id: ${connection}\n    connection_data_source: google_ads\n    accounts: [{id: ${a}}, {id: ${b}}]\nsync_from_date: 2024-01-01\n`,
    );
    const second = await edp(['-w', '101', 'recipes', 'configure', id, '--file', yaml]);
    expect(second.code).toBe(0);
    expect(recipe(id)).toMatchObject({ sync_from_date: '2024-01-01', connections: [{ account_ids: [a, b] }] });
  });

  it.for([
    [
      'JSON',
      102,
      'deploy.json',
      JSON.stringify({
        template: 'Paid Media Performance',
        sources: [{ data_source: 'google_ads', accounts: 'all-active' }],
      }),
    ],
    [
      'YAML',
      103,
      'deploy.yaml',
      'template: Paid Media Performance\nsources:\n  - data_source: google_ads\n    accounts: all-active\n',
    ],
  ] as const)('deploy --file as %s builds the recipe', async ([, ws, name, text], { expect }) => {
    const edp = operator();
    const r = await edp([
      '-w',
      String(ws),
      'recipes',
      'deploy',
      '--file',
      file(name, text),
      '--poll-interval',
      '10ms',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([expect.objectContaining({ workspace_id: ws, state: 'ready_to_work', error: null })]);
    const id = /"recipe_id": (\d+)/.exec(r.stdout)![1]!;
    expect(recipe(id).connections[0]!.account_ids).toEqual(googleAds(ws).accounts);
  });
});

describe.concurrent('edp webhooks, built', () => {
  it('create, then list without the secret', async ({ expect }) => {
    const edp = operator();
    // A loopback address where nothing listens: no delivery leaves the machine.
    const created = await edp([
      '-w',
      '101',
      'webhooks',
      'create',
      '--url',
      'http://127.0.0.1:9/edp',
      '--events',
      'recipe_activated',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ status: 'unverified', event_types: ['recipe_activated'] });
    expect(created.json().secret).toMatch(/^[0-9a-f]{64}$/);
    const list = await edp(['-w', '101', 'webhooks', 'list', '--json']);
    expect(list.json()).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:9/edp' })]);
    expect(list.stdout).not.toContain(created.json().secret);
  });
});

describe.concurrent('edp roles, built', () => {
  const role = (title: string) => sb.store.state.roles?.find((r: { title: string }) => r.title === title);

  it.for([
    [
      'JSON',
      'role.json',
      JSON.stringify({
        title: 'From JSON',
        description: 'json',
        permissions: ['WORKSPACE:VIEW', { layer: 'CONNECTION', permission: 'VIEW' }],
      }),
      'update.yaml',
      'description: then YAML\npermissions: [WORKSPACE:VIEW, CONNECTION:VIEW, EXTRACT:VIEW]\n',
    ],
    [
      'YAML',
      'role.yaml',
      'title: From YAML\ndescription: yaml\npermissions: [WORKSPACE:VIEW, {layer: CONNECTION, permission: VIEW}]\n',
      'update.json',
      JSON.stringify({ description: 'then JSON', permissions: ['WORKSPACE:VIEW', 'CONNECTION:VIEW', 'EXTRACT:VIEW'] }),
    ],
  ] as const)(
    'create --file as %s, then update --file in the other format (adding a permission: a removal needs --yes)',
    async ([kind, createName, createText, updateName, updateText], { expect }) => {
      const edp = operator();
      const created = await edp(['roles', 'create', '--file', file(createName, createText), '--json']);
      expect(created.code).toBe(0);
      expect(created.json()).toMatchObject({
        title: `From ${kind}`,
        permissions: [
          { layer: 'WORKSPACE', permission: 'VIEW' },
          { layer: 'CONNECTION', permission: 'VIEW' },
        ],
      });
      const updated = await edp([
        'roles',
        'update',
        String(created.json().id),
        '--file',
        file(updateName, updateText),
        '--json',
      ]);
      expect(updated.code).toBe(0);
      expect(updated.json()).toMatchObject({
        title: `From ${kind}`,
        description: kind === 'JSON' ? 'then YAML' : 'then JSON',
      });
      expect(updated.json().permissions).toEqual(
        expect.arrayContaining([
          { layer: 'EXTRACT', permission: 'VIEW' },
          { layer: 'CONNECTION', permission: 'VIEW' },
        ]),
      );
      expect(role(`From ${kind}`)).toBeDefined();
    },
  );

  it('list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['roles', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((x: { title: string }) => x.title)).toEqual(
      expect.arrayContaining(['Workspace Admin', 'Media Buyer']),
    );
  });
});

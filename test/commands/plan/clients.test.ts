import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { http, useSandbox } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';
import { endpointsOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-clients-');

// Each test changes the agency: each has a sandbox of its own (demo: 101 Acme Retail, 102 Globex Media, 103 Initech Apps).
const t = useSandbox({ buildSeconds: 0 }, [], { each: true });

const validatePlan = new Ajv2020({ strict: false, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync('docs/plan.schema.json', 'utf8')),
);

const titles = () => t.sb.store.state.workspaces.map((w) => `${w.id} ${w.title}`);
const journal = async () =>
  ((await http(t.sb, 'GET', '/_sandbox/requests')).body as { results: Array<{ method: string; path: string }> })
    .results;

const CLIENTS = `clients:
  - title: Acme Retail
    groups: [retail]
  - title: Globex Media Group
    id: 102
  - title: Umbrella Foods
    groups: [retail]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated]
    workspaces: [group:retail]
`;

describe('clients: a workspace per client', () => {
  it('plans a missing client workspace as created and a pinned one retitled as renamed, before anything in them; apply makes both, and plans no change after', async () => {
    const f = writeFile('clients.yaml', CLIENTS);
    const text = await t.edp('plan', '-f', f);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('workspace 101 (Acme Retail):\n  + webhook https://hooks.example.com/edp: create');
    expect(text.stdout).toContain(
      'workspace 102 (Globex Media Group):\n  ~ workspace "Globex Media Group" (102): rename from "Globex Media"',
    );
    expect(text.stdout).toContain(
      `workspace "Umbrella Foods" (new):\n  + workspace "Umbrella Foods": create (a client's workspace)\n  + webhook https://hooks.example.com/edp: create`,
    );
    expect(text.stdout).toContain('Plan: 4 change(s) to make.');

    const json = (await t.edp('plan', '-f', f, '--json')).json();
    expect(validatePlan(JSON.parse(JSON.stringify(json))), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(json.workspaces.map((w: any) => [w.workspace_id, w.title, w.changes.map((c: any) => c.action)])).toEqual([
      [101, 'Acme Retail', ['create']],
      [102, 'Globex Media Group', ['update']],
      [null, 'Umbrella Foods', ['create', 'create']],
    ]);
    expect(json.workspaces[1].changes[0]).toMatchObject({
      resource: 'workspace',
      action: 'update',
      id: 102,
      detail: { title: 'Globex Media Group', was: 'Globex Media' },
    });
    const markdown = (await t.edp('plan', '-f', f, '--format', 'markdown')).stdout;
    expect(markdown).toContain('#### Workspace "Umbrella Foods" (new)');
    expect(markdown).toContain('`~ workspace "Globex Media Group" (102): rename from "Globex Media"`');

    // Counted like any change: nothing is sent past the limit.
    const limited = await t.edp('apply', '-f', f, '--yes', '--json', '--max-changes', '3');
    expect(limited.code).toBe(6);
    expect(titles()).toEqual(['101 Acme Retail', '102 Globex Media', '103 Initech Apps']);

    const apply = await t.edp('apply', '-f', f, '--yes', '--json');
    expect(apply.code).toBe(0);
    expect(apply.stderr).toContain('["Umbrella Foods" (new)] workspace "Umbrella Foods": create\n');
    const created = t.sb.store.state.workspaces.find((w) => w.title === 'Umbrella Foods');
    expect(titles()).toEqual([
      '101 Acme Retail',
      '102 Globex Media Group',
      '103 Initech Apps',
      `${created!.id} Umbrella Foods`,
    ]);
    // The new workspace received its entry in the same apply, under its new id.
    expect(endpointsOf(t.sb, created!.id).map((e: any) => e.url)).toEqual(['https://hooks.example.com/edp']);
    expect(apply.json().filter((r: any) => r.resource === 'workspace')).toEqual([
      expect.objectContaining({ workspace_id: 102, action: 'update', result: 'ok', state: 'renamed' }),
      expect.objectContaining({ workspace_id: created!.id, action: 'create', result: 'ok', state: 'created' }),
    ]);

    const again = await t.edp('plan', '-f', f, '--detailed-exitcode');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes: the workspaces match the file.');
  });

  it('waves name a workspace still to create by its title, and by its id once created', async () => {
    const f = writeFile('waves.yaml', CLIENTS);
    const r = await t.edp('apply', '-f', f, '--yes', '--json', '--waves', '2');
    expect(r.code).toBe(0);
    const id = t.sb.store.state.workspaces.find((w) => w.title === 'Umbrella Foods')!.id;
    expect(r.stderr).toContain('wave 2 of 2: "Umbrella Foods" (new)\n');
    expect(r.stderr).toContain(`wave 2 of 2 ended without failure: ${id}\n`);
  });

  it('refuses two clients of one title, and a file with neither workspaces nor clients, naming the place (exit 2, nothing sent)', async () => {
    await http(t.sb, 'DELETE', '/_sandbox/requests');
    const twice = writeFile('twice.yaml', 'clients:\n  - title: Acme Retail\n  - title: Acme Retail\n');
    const r = await t.edp('plan', '-f', twice);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('twice.yaml:3:5: clients[1].title: same title as clients[0] (Acme Retail)');
    const none = await t.edp('plan', '-f', writeFile('none.yaml', 'webhooks: []\n'));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('workspaces: required (the default scope of the entries) unless clients: is given');
    expect(await journal()).toEqual([]);
  });
});

describe('workspace selectors', () => {
  it('ids, all, title: and group:, mixed, select the workspaces of each entry', async () => {
    const f = writeFile(
      'selectors.yaml',
      `workspaces: [101]
clients:
  - {title: Acme Retail, id: 101, groups: [retail]}
  - {title: Globex Media, id: 102, groups: [media]}
webhooks:
  - url: https://a.example.com/x
    events: [recipe_activated]
    workspaces: [title:Initech Apps]
  - url: https://b.example.com/x
    events: [recipe_activated]
    workspaces: [group:media, 101]
  - url: https://c.example.com/x
    events: [recipe_activated]
    workspaces: [all]
  - url: https://d.example.com/x
    events: [recipe_activated]
`,
    );
    const json = (await t.edp('plan', '-f', f, '--json')).json();
    expect(json.workspaces.map((w: any) => [w.workspace_id, w.changes.map((c: any) => c.name[8])])).toEqual([
      [101, ['b', 'c', 'd']],
      [102, ['b', 'c']],
      [103, ['a', 'c']],
    ]);
  });

  it('a title no workspace has and a group no client is in are file errors at their place, with the nearest name (exit 2)', async () => {
    const clients = 'clients:\n  - {title: Acme Retail, groups: [retail]}\n';
    const hook = (ws: string) =>
      `webhooks:\n  - url: https://a.example.com/x\n    events: [recipe_activated]\n    workspaces: [101, ${ws}]\n`;
    await http(t.sb, 'DELETE', '/_sandbox/requests');
    const group = await t.edp('plan', '-f', writeFile('group.yaml', clients + hook('group:retial')));
    expect(group.code).toBe(2);
    expect(group.stderr).toContain(
      'group.yaml:6:23: webhooks[0].workspaces[1]: no client is in group retial (the groups are retail); did you mean "retail"?',
    );
    // Known from the file alone: nothing was read.
    expect(await journal()).toEqual([]);
    const title = await t.edp('plan', '-f', writeFile('title.yaml', clients + hook('"title:Initec Apps"')));
    expect(title.code).toBe(2);
    expect(title.stderr).toContain(
      'title.yaml:6:23: webhooks[0].workspaces[1]: no workspace is titled "Initec Apps" (nor is a client); did you mean "Initech Apps"?',
    );
    // Only the agency's workspace list was read.
    expect((await journal()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v3/workspaces']);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { endpointsOf, recipesOf, remoteOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-scope-');

// Each test changes the agency: each starts a sandbox of its own.
let sb: Sandbox | undefined;
const fresh = async () => (sb = await sandbox({ buildSeconds: 0 }));
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const recipeFile = (s: Sandbox, workspaces: string, title?: string) =>
  `workspaces: ${workspaces}\nrecipes:\n  - template: Paid Media Performance\n${title ? `    title: ${title}\n` : ''}    sources:\n      - data_source: google_ads\n        accounts: [remote:${remoteOf(s, 101, 'google_ads', 0)}]\n`;

describe('plan and apply: what the file names, exactly', () => {
  it('a changed recipe title is blocked with the reason, never "No changes" (exit 6), and apply sends nothing', async () => {
    const s = await fresh();
    const created = writeFile('created.yaml', recipeFile(s, '[101]', 'Spend (custom)'));
    expect((await cli(s, ['apply', '-f', created, '--yes', ...FAST])).code).toBe(0);
    expect(recipesOf(s, 101)[0]!.title).toBe('Spend (custom)');

    const renamed = writeFile('renamed.yaml', recipeFile(s, '[101]', 'Spend (renamed)'));
    const plan = await cli(s, ['plan', '-f', renamed, '--detailed-exitcode']);
    expect(plan.code).toBe(6);
    expect(plan.stdout).not.toContain('No changes');
    expect(plan.stdout).toContain('title_change_not_supported');
    expect(plan.stdout).toContain('"Spend (custom)"');
    const json = (await cli(s, ['plan', '-f', renamed, '--json'])).json();
    expect(json.workspaces[0].blocked).toEqual([expect.objectContaining({ code: 'title_change_not_supported' })]);

    const apply = await cli(s, ['apply', '-f', renamed, '--yes', ...FAST]);
    expect(apply.code).toBe(6);
    expect(recipesOf(s, 101)[0]!.title).toBe('Spend (custom)');
  });

  it('an event type the service does not list is blocked at plan time with the nearest name (exit 2); apply creates nothing', async () => {
    const s = await fresh();
    const f = writeFile(
      'events.yaml',
      'workspaces: [101, 102]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [recipe_activatd, recipe_build_failed]\n',
    );
    const plan = await cli(s, ['plan', '-f', f, '--json']);
    expect(plan.code).toBe(2);
    const doc = plan.json();
    expect(doc.summary).toMatchObject({ changes: 0, blocked: 2 });
    expect(doc.workspaces[0].blocked[0]).toMatchObject({ resource: 'webhook', code: 'event_type_unknown' });
    expect(doc.workspaces[0].blocked[0].message).toContain('"recipe_build_failed"');
    expect(doc.workspaces[0].blocked[0].message).toContain('"recipe_activatd" (did you mean recipe_activated');
    expect((await cli(s, ['apply', '-f', f, '--yes'])).code).toBe(2);
    expect(endpointsOf(s, 101)).toEqual([]);
    expect(endpointsOf(s, 102)).toEqual([]);
  });

  it('-w restricts the file to those workspaces; a workspace the file does not cover is bad input (exit 2)', async () => {
    const s = await fresh();
    const f = writeFile('three.yaml', recipeFile(s, '[101, 102, 103]'));
    const plan = await cli(s, ['plan', '-f', f, '-w', '103', '--json']);
    expect(plan.code).toBe(0);
    expect(plan.json().workspaces.map((w: any) => w.workspace_id)).toEqual([103]);

    const apply = await cli(s, ['apply', '-f', f, '-w', '102', '--yes', ...FAST]);
    expect(apply.code).toBe(0);
    expect(recipesOf(s, 101)).toEqual([]);
    expect(recipesOf(s, 102)).toHaveLength(1);
    expect(recipesOf(s, 103)).toEqual([]);

    await http(s, 'DELETE', '/_sandbox/requests');
    const outside = await cli(s, ['plan', '-f', writeFile('one.yaml', recipeFile(s, '[101]')), '-w', '103']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--workspace: the fleet file does not cover workspace 103/);
    const bad = await cli(s, ['plan', '-f', f, '-w', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--workspace');
    // Only reads for the refused scope (the agency's workspace list), and nothing for a malformed -w.
    const journal = (await http(s, 'GET', '/_sandbox/requests')).body;
    expect(journal.results.map((e: any) => `${e.method} ${e.path}`)).toEqual(['GET /api/v3/workspaces']);
  });

  it('a workspace the agency does not have is an error at plan time (exit 5, named), never "no change"', async () => {
    const s = await fresh();
    const f = writeFile(
      'unknown-ws.yaml',
      'workspaces: [101, 999]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [load_completed]\n',
    );
    for (const argv of [
      ['plan', '-f', f],
      ['apply', '-f', f, '--yes'],
    ]) {
      const r = await cli(s, argv);
      expect(r.code).toBe(5);
      expect(r.stderr).toContain('workspace 999');
      expect(r.stdout).not.toContain('no change');
    }
    expect(endpointsOf(s, 101)).toEqual([]);
  });

  it('a recipe whose connection was deleted plans like any other: a note, no error', async () => {
    const s = await fresh();
    const f = writeFile('deleted.yaml', recipeFile(s, '[101]'));
    expect((await cli(s, ['apply', '-f', f, '--yes', ...FAST])).code).toBe(0);
    const connection = String(recipesOf(s, 101)[0]!.connections[0]!.connection_id);
    expect((await cli(s, ['connections', 'delete', connection, '-w', '101', '--yes'])).code).toBe(0);

    const plan = await cli(s, ['plan', '-f', f, '--json']);
    expect(plan.code).toBe(0);
    const [w] = plan.json().workspaces;
    expect(w.error).toBeNull();
    expect(w.notes).toEqual([expect.objectContaining({ code: 'connection_deleted' })]);
    expect(w.notes[0].message).toContain(`connection ${connection} was deleted`);
    const human = await cli(s, ['plan', '-f', f]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('inactive');
    expect(human.stdout).not.toContain('cannot be read');
  });
});

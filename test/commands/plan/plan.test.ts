import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { recipesOf, remoteOf, writable } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-');

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox({ buildSeconds: 0 });
});
afterEach(() => sb.close());
beforeEach(() => {
  resetRecipes(sb);
  (sb.store.state as any).webhook_endpoints = [];
});

const fleet = (sbx: Sandbox, extra = '') => `
workspaces: [101, 102, 103]
recipes:
  - template: Paid Media Performance
    sync_from_date: 2024-01-01
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sbx, 101, 'google_ads', 0)}, remote:${remoteOf(sbx, 101, 'google_ads', 1)}]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated, load_completed]
    workspaces: [101]
roles:
  - title: Media Buyer
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
${extra}`;

describe('edp export and plan', () => {
  it('blocks what cannot be done: an account that does not resolve, an unknown template (exit 5)', async () => {
    const f = writeFile(
      'blocked.yaml',
      `workspaces: [101, 102]\nrecipes:\n  - template: Paid Media Performance\n    sources:\n      - data_source: google_ads\n        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}, remote:000-000-0000]\n  - template: No Such Template\n    sources:\n      - data_source: google_ads\n        accounts: [all-active]\n`,
    );
    const r = await cli(sb, ['plan', '-f', f, '--json', '--detailed-exitcode']);
    expect(r.code).toBe(5);
    const [w101] = r.json().workspaces;
    expect(w101.blocked.map((b: any) => b.code)).toEqual(['account_unresolved', 'template_not_found']);
    expect(w101.blocked[0].message).toContain('remote:000-000-0000');
    // The account that resolves is still planned.
    expect(w101.changes.find((c: any) => c.action === 'configure').detail.accounts[0].add).toEqual([
      `remote:${remoteOf(sb, 101, 'google_ads', 0)}`,
    ]);
    const human = await cli(sb, ['plan', '-f', f]);
    expect(human.stdout).toMatch(/cannot be done \(template_not_found\)/);
  });

  it('colours each change symbol at a colour terminal, and only the symbol: the text is the same without colour', async () => {
    const f = writeFile('colour.yaml', fleet(sb));
    const coloured = await cli(sb, ['plan', '-f', f], { tty: true, env: { FORCE_COLOR: '1' } });
    const plain = await cli(sb, ['plan', '-f', f], { tty: true, env: { NO_COLOR: '1' } });
    expect(coloured.stdout).toContain('  \x1b[32m+\x1b[39m recipe');
    expect(coloured.stdout).toContain('  \x1b[32m+\x1b[39m webhook');
    expect(coloured.stdout.replace(/\x1b\[\d+m/g, '')).toBe(plain.stdout);
    expect(plain.stdout).not.toContain('\x1b');
    const piped = await cli(sb, ['plan', '-f', f], { env: { FORCE_COLOR: undefined } });
    expect(piped.stdout).not.toContain('\x1b');
  });

  it('round-trips the demo agency: plan on the export reports no change, and --detailed-exitcode is 0', async () => {
    const out = writeFile('demo.yaml', '');
    const exported = await cli(sb, ['export', '--all-workspaces', '--output', out]);
    expect(exported.code).toBe(0);
    const plan = await cli(sb, ['plan', '-f', out, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('the fleet file given without -f gets the command line meant', async () => {
    const r = await cli(sb, ['plan', 'fleet.yaml', '--prune']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "required option '-f, --file <file>' not specified; did you mean `edp plan -f fleet.yaml --prune`?",
    );
  });

  it('an update says only what changes: a description alone, events added and removed', async () => {
    const made = await cli(sb, [
      'webhooks',
      'create',
      '-w',
      '101',
      '--url',
      'https://hooks.example.com/diff',
      '--events',
      'recipe_activated,load_completed',
    ]);
    expect(made.code).toBe(0);
    const out = writeFile('diff.yaml', '');
    expect((await cli(sb, ['export', '-w', '101', '--output', out])).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const edited = text
      .replace('Runs extraction and builds recipes', 'Runs extraction, builds recipes')
      .replace(/- load_completed\n/, '- load_started\n');
    expect(edited).not.toBe(text);
    writeFileSync(out, edited);
    const plan = await cli(sb, ['plan', '-f', out]);
    expect(plan.stdout).toMatch(
      /~ role "Media Buyer" \(\d+\): description "Runs extraction and builds recipes" → "Runs extraction, builds recipes"$/m,
    );
    expect(plan.stdout).toMatch(
      /~ webhook https:\/\/hooks\.example\.com\/diff \(\d+\): events \+ load_started, - load_completed$/m,
    );
    expect(plan.stdout).not.toContain('permissions');
  });

  it('plans creates, appends and builds without sending a write; exit 10 with --detailed-exitcode', async () => {
    const f = writeFile('fleet.yaml', fleet(sb));
    const before = writable(sb);
    const events = sb.store.state.events.length;
    await http(sb, 'DELETE', '/_sandbox/requests');
    const plan = await cli(sb, ['plan', '-f', f, '--detailed-exitcode', '--json']);
    expect(plan.code).toBe(10);
    // The journal: reads only, besides issuing workspace tokens to read with.
    const sent = (await http(sb, 'GET', '/_sandbox/requests')).body.results.map((e: any) => `${e.method} ${e.path}`);
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((x: string) => !x.startsWith('GET ') && x !== 'POST /api/v3/token')).toEqual([]);
    expect(writable(sb)).toBe(before);
    expect(sb.store.state.events.length).toBe(events);
    const doc = plan.json();
    expect(Object.keys(doc)).toEqual(['format_version', 'workspaces', 'agency', 'summary']);
    expect(doc.workspaces.map((w: any) => w.workspace_id)).toEqual([101, 102, 103]);
    expect(doc.workspaces[0].changes.map((c: any) => `${c.resource}:${c.action}`)).toEqual([
      'recipe:create',
      'recipe:configure',
      'recipe:build',
      'webhook:create',
    ]);
    expect(doc.workspaces[1].changes.map((c: any) => `${c.resource}:${c.action}`)).toEqual([
      'recipe:create',
      'recipe:configure',
      'recipe:build',
    ]);
    expect(doc.workspaces[0].changes[1].detail.accounts[0].add).toEqual([
      `remote:${remoteOf(sb, 101, 'google_ads', 0)}`,
      `remote:${remoteOf(sb, 101, 'google_ads', 1)}`,
    ]);
    expect(doc.agency.changes.map((c: any) => `${c.resource}:${c.action}:${c.name}`)).toEqual([
      'role:update:Media Buyer',
    ]);
    expect(doc.summary).toEqual({ changes: 11, blocked: 0, errors: 0 });
  });

  it('after apply, the export of the fleet plans no change and merges what the workspaces share', async () => {
    const f = writeFile('fleet2.yaml', fleet(sb));
    const applied = await cli(sb, ['apply', '-f', f, '--yes', ...FAST, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const out = writeFile('exported.yaml', '');
    expect((await cli(sb, ['export', '-w', '101,102,103', '--output', out])).code).toBe(0);
    const again = await cli(sb, ['plan', '-f', out, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
    const json = await cli(sb, ['export', '-w', '101,102,103', '--json']);
    const doc = json.json();
    expect(doc.workspaces).toEqual([101, 102, 103]);
    expect(doc.recipes).toHaveLength(1);
    expect(doc.recipes[0]).not.toHaveProperty('workspaces');
    expect(doc.recipes[0].template).toBe('Paid Media Performance');
    expect(doc.webhooks).toEqual([
      { url: 'https://hooks.example.com/edp', events: ['load_completed', 'recipe_activated'], workspaces: [101] },
    ]);
    expect(json.stdout).not.toMatch(/secret/i);
  });

  it('takes its concurrency from --concurrency, EDP_CONCURRENCY or the profile, checked before sending', async () => {
    const f = writeFile('conc.yaml', 'workspaces: [101]\nwebhooks: []\n');
    const flag = await cli({ url: 'http://127.0.0.1:9' }, ['plan', '-f', f, '--concurrency', '0']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--concurrency');
    const env = await cli({ url: 'http://127.0.0.1:9' }, ['plan', '-f', f], { env: { EDP_CONCURRENCY: '0' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('EDP_CONCURRENCY');
    expect((await cli(sb, ['plan', '-f', f], { env: { EDP_CONCURRENCY: '2' } })).code).toBe(0);
  });

  it('refuses a bad file before anything is sent, naming the field path (exit 2)', async () => {
    const f = writeFile(
      'bad.yaml',
      'workspaces: [101]\nrecipes:\n  - template: Paid Media Performance\n    sources:\n      - data_source: google_ads\n        accounts: []\nwebhooks:\n  - url: not-a-url\n    events: [load_completed]\n',
    );
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['plan', '-f', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('recipes[0].sources[0].accounts');
    expect(r.stderr).toContain('webhooks[0].url');
    const unknown = await cli({ url: 'http://127.0.0.1:9' }, [
      'plan',
      '-f',
      writeFile('bad2.yaml', 'workspaces: [101]\nrecipe: []\n'),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/recipe/);
  });

  it('shows a removal the append-only configuration refuses, and apply does not attempt it', async () => {
    const two = writeFile('two.yaml', fleet(sb));
    expect((await cli(sb, ['apply', '-f', two, '--yes', ...FAST])).code).toBe(0);
    const configured = JSON.stringify(recipesOf(sb, 101)[0]!.connections);
    const one = writeFile(
      'one.yaml',
      `workspaces: [101]\nrecipes:\n  - template: Paid Media Performance\n    sync_from_date: 2024-01-01\n    sources:\n      - data_source: google_ads\n        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}]\n`,
    );
    const plan = await cli(sb, ['plan', '-f', one]);
    expect(plan.code).toBe(6);
    expect(plan.stdout).toContain('account_removal_not_allowed');
    expect(plan.stdout).toContain(`remote:${remoteOf(sb, 101, 'google_ads', 1)}`);
    const apply = await cli(sb, ['apply', '-f', one, '--yes', '--json', ...FAST]);
    expect(apply.code).toBe(6);
    expect(JSON.stringify(recipesOf(sb, 101)[0]!.connections)).toBe(configured);
    expect((await http(sb, 'GET', '/_sandbox/events')).body.length).toBeGreaterThan(0);
  });
});

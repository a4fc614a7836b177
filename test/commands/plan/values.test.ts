import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, http, tempDir, useSandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { endpointsOf, recipesOf, remoteOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-values-');

// Each test changes the agency: each has a sandbox of its own.
const t = useSandbox({ buildSeconds: 0 }, [], { each: true });

const journal = async () =>
  ((await http(t.sb, 'GET', '/_sandbox/requests')).body as { results: Array<{ method: string; path: string }> })
    .results;

const SECRET = 'tok-5f1e9c0d2a7b';

/** Two clients with vars, a recipe taking its account from them, an endpoint whose url takes a key from the environment. */
const fleet = () => `clients:
  - title: Acme Retail
    id: 101
    vars: {slug: acme, ads: "${remoteOf(t.sb, 101, 'google_ads', 0)}"}
  - title: Globex Media
    id: 102
    vars: {slug: globex, ads: "${remoteOf(t.sb, 102, 'google_ads', 1)}"}
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: ["remote:\${var.ads}"]
webhooks:
  - url: "https://hooks.example.com/\${var.slug}?key=\${env.HOOK_KEY}"
    events: [recipe_activated]
roles:
  - title: Media Buyer
    description: "Runs paid media at $\${budget}"
    permissions: [EXTRACT:RUN]
`;

/** edp against the test's sandbox, with HOOK_KEY set unless told otherwise. */
const edp = (argv: string[], env: Record<string, string | undefined> = { HOOK_KEY: SECRET }) =>
  cli(t.sb, argv, { env });

describe('values: ${var.NAME} from the client, ${env.NAME} from the environment', () => {
  it("resolves each workspace's vars in recipes and webhooks; a value from the environment is sent and shown as (from env NAME)", async () => {
    const f = writeFile('fleet.yaml', fleet());
    const plan = await edp(['plan', '-f', f, '--json']);
    expect(plan.code).toBe(0);
    const doc = plan.json();
    const configure = (ws: number) =>
      doc.workspaces.find((w: any) => w.workspace_id === ws).changes.find((c: any) => c.action === 'configure');
    expect(configure(101).detail.accounts[0].add).toEqual([`remote:${remoteOf(t.sb, 101, 'google_ads', 0)}`]);
    expect(configure(102).detail.accounts[0].add).toEqual([`remote:${remoteOf(t.sb, 102, 'google_ads', 1)}`]);
    const hooks = doc.workspaces.map((w: any) => w.changes.find((c: any) => c.resource === 'webhook').name);
    expect(hooks).toEqual(['(from env HOOK_KEY)', '(from env HOOK_KEY)']);
    // $${ is a literal ${.
    expect(doc.agency.changes[0].detail.description).toBe('Runs paid media at ${budget}');

    const apply = await edp(['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(apply.code).toBe(0);
    expect(endpointsOf(t.sb, 101).map((e: any) => e.url)).toEqual([`https://hooks.example.com/acme?key=${SECRET}`]);
    expect(endpointsOf(t.sb, 102).map((e: any) => e.url)).toEqual([`https://hooks.example.com/globex?key=${SECRET}`]);
    expect(recipesOf(t.sb, 101)).toHaveLength(1);
    expect(t.sb.store.state.roles!.find((r) => r.title === 'Media Buyer')!.description).toBe(
      'Runs paid media at ${budget}',
    );
    // What was sent is what the file means: planned again, nothing is left to do.
    expect((await edp(['plan', '-f', f, '--detailed-exitcode'])).code).toBe(0);
  }, 20_000);

  it('an unknown ${var.…} or an unset ${env.…} is a file error at its line and column, with the nearest var (exit 2, nothing sent)', async () => {
    await http(t.sb, 'DELETE', '/_sandbox/requests');
    const f = writeFile('unknown.yaml', fleet().replace('${var.slug}', '${var.slgu}'));
    const r = await edp(['plan', '-f', f], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'unknown.yaml:14:5: webhooks[0].url: ${var.slgu}: no client has a var slgu (the vars are slug, ads); did you mean "slug"?',
    );
    expect(r.stderr).toContain(
      'unknown.yaml:14:5: webhooks[0].url: ${env.HOOK_KEY}: HOOK_KEY is not set in the environment',
    );
    expect(r.stdout).toBe('');
    expect(await journal()).toEqual([]);

    // A var the file has, but not the client of every workspace the entry applies to: known once the workspaces are.
    const partly = writeFile(
      'partly.yaml',
      'workspaces: [101, 103]\nclients:\n  - {title: Acme Retail, id: 101, vars: {slug: acme}}\nwebhooks:\n  - url: "https://hooks.example.com/${var.slug}"\n    events: [recipe_activated]\n',
    );
    const p = await edp(['plan', '-f', partly]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain(
      'partly.yaml:5:5: webhooks[0].url: ${var.slug}: workspace 103 ("Initech Apps") is no client\'s, so it has no vars; add it to clients: with vars.slug',
    );
    expect(endpointsOf(t.sb, 101)).toEqual([]);
  });

  it('a saved plan holds no value of the environment: apply reads each again, and refuses one that is unset (exit 2, naming it, nothing sent)', async () => {
    const f = writeFile('saved.yaml', fleet());
    const out = join(tempDir().dir, 'plan.json');
    expect((await edp(['plan', '-f', f, '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(out, 'utf8')).toContain('(from env HOOK_KEY)');

    await http(t.sb, 'DELETE', '/_sandbox/requests');
    const refused = await edp(['apply', out, '--yes'], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${out} takes values from the environment, which a saved plan never holds, and HOOK_KEY is not set`,
    );
    expect(await journal()).toEqual([]);

    const applied = await edp(['apply', out, '--yes', '--json', ...FAST]);
    expect(applied.code).toBe(0);
    expect(endpointsOf(t.sb, 101).map((e: any) => e.url)).toEqual([`https://hooks.example.com/acme?key=${SECRET}`]);

    // A value that changed since is sent as it is now, and is drift where it changes what apply would do.
    const again = join(tempDir().dir, 'again.json');
    expect((await edp(['plan', '-f', f, '--out', again])).code).toBe(0);
    const moved = await edp(['apply', again, '--yes', '--json'], { HOOK_KEY: 'rotated' });
    expect(moved.code).toBe(6);
    expect(moved.stderr).toContain('workspace 101: the changes to make are no longer the ones reviewed');
    expect(endpointsOf(t.sb, 101)).toHaveLength(1);
  }, 20_000);
});

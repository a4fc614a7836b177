import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { parseJson } from '../../../src/util/json.js';
import { cli, http, sandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { endpointsOf, recipesOf, remoteOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-saved-plan-');

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const validatePlan = ajv.compile(JSON.parse(readFileSync('docs/plan.schema.json', 'utf8')));
/** A plan document checked against the published schema; the validator's own words when it fails. */
function expectValidPlan(doc: unknown): void {
  // The schema is JSON: read the document as a JSON reader would (large ids as numbers).
  const plain = JSON.parse(JSON.stringify(doc, (_k, v) => (v?.isLosslessNumber ? Number(v.value) : v)));
  const ok = validatePlan(plain);
  expect(ok ? [] : ajv.errorsText(validatePlan.errors).split(', ')).toEqual([]);
}

let sb: Sandbox | undefined;
const fresh = async () => (sb = await sandbox({ buildSeconds: 0 }));
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const fleet = (s: Sandbox) => `workspaces: [101, 102]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(s, 101, 'google_ads', 0)}]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated]
    workspaces: [101]
roles:
  - title: Media Buyer
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
`;

describe('plan documents', () => {
  it('plan --json and a saved plan are versioned documents that their JSON Schema accepts', async () => {
    const s = await fresh();
    const f = writeFile('fleet.yaml', fleet(s));
    const plan = await cli(s, ['plan', '-f', f, '--json']);
    expect(plan.code).toBe(0);
    expect(plan.json().format_version).toBe(1);
    expectValidPlan(plan.json());

    const blocked = writeFile(
      'blocked.yaml',
      `workspaces: [101]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [no_such_event]\n`,
    );
    const withBlocked = await cli(s, ['plan', '-f', blocked, '--json']);
    expect(withBlocked.code).toBe(2);
    expectValidPlan(withBlocked.json());

    const saved = writeFile('saved.json', '');
    expect((await cli(s, ['plan', '-f', f, '--json', '--out', saved])).code).toBe(0);
    expectValidPlan(parseJson(readFileSync(saved, 'utf8')));
  });

  it('the schema refuses what a reader cannot take (it is not a schema that accepts anything)', () => {
    expect(validatePlan({ format_version: 2, workspaces: [], agency: {}, summary: {} })).toBe(false);
    expect(
      validatePlan({
        format_version: 1,
        workspaces: [
          { workspace_id: 101, changes: [{ resource: 'recipe' }], blocked: [], notes: [], unmanaged: [], error: null },
        ],
        agency: { changes: [], blocked: [], unmanaged: [], error: null },
        summary: { changes: 1, blocked: 0, errors: 0 },
      }),
    ).toBe(false);
  });

  it('--format markdown: a summary line, one section per workspace, what cannot be done before the changes', async () => {
    const s = await fresh();
    const f = writeFile(
      'md.yaml',
      `workspaces: [101, 102, 103]\nrecipes:\n  - template: Paid Media Performance\n    workspaces: [101]\n    sources:\n      - data_source: google_ads\n        accounts: [remote:${remoteOf(s, 101, 'google_ads', 0)}]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [recipe_activatd]\n    workspaces: [101]\n`,
    );
    const r = await cli(s, ['plan', '-f', f, '--format', 'markdown']);
    expect(r.code).toBe(2);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('### edp plan');
    expect(lines[2]).toMatch(
      /^\*\*\d+ change\(s\) to make\*\*, 1 that cannot be done, 0 part\(s\) that could not be read\.$/,
    );
    const section = r.stdout.slice(r.stdout.indexOf('#### Workspace 101'));
    expect(section.indexOf('cannot be done')).toBeGreaterThan(0);
    expect(section.indexOf('cannot be done')).toBeLessThan(section.indexOf('`+ recipe'));
    expect(r.stdout).not.toContain('#### Workspace 102');
    expect(r.stdout).toContain('No change in workspace(s) 102, 103.');

    const bad = await cli(s, ['plan', '-f', f, '--format', 'html']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of text, markdown, json');
    const both = await cli(s, ['plan', '-f', f, '--format', 'markdown', '--json']);
    expect(both.code).toBe(2);
  });
});

describe('a saved plan', () => {
  it('edp apply PLAN carries out exactly the plan that was saved, and a second plan is empty', async () => {
    const s = await fresh();
    const f = writeFile('fleet.yaml', fleet(s));
    const out = writeFile('plan.json', '');
    const plan = await cli(s, ['plan', '-f', f, '--out', out]);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain(`edp apply ${out}`);
    const saved = parseJson(readFileSync(out, 'utf8')) as any;
    expect(saved.source.service).toBe(new URL(s.url).origin);
    expect(JSON.stringify(saved)).not.toContain('sandbox@'); // no credentials

    const apply = await cli(s, ['apply', out, '--yes', ...FAST]);
    expect(apply.code).toBe(0);
    expect(recipesOf(s, 101)).toHaveLength(1);
    expect(recipesOf(s, 102)).toHaveLength(1);
    expect(endpointsOf(s, 101)).toHaveLength(1);
    const again = await cli(s, ['plan', '-f', f, '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });

  it('refuses (exit 6, naming what moved) when the live state changed since the plan was saved, and sends no write', async () => {
    const s = await fresh();
    const f = writeFile('fleet.yaml', fleet(s));
    const out = writeFile('plan.json', '');
    expect((await cli(s, ['plan', '-f', f, '--out', out])).code).toBe(0);
    // Someone changes a workspace after the review.
    const created = await cli(s, [
      'webhooks',
      'create',
      '--url',
      'https://other.example.com/x',
      '--events',
      'load_completed',
      '-w',
      '101',
    ]);
    expect(created.code).toBe(0);
    await http(s, 'DELETE', '/_sandbox/requests');

    const apply = await cli(s, ['apply', out, '--yes']);
    expect(apply.code).toBe(6);
    expect(apply.stderr).toMatch(/the live state moved since .*plan\.json was saved/);
    expect(apply.stderr).toMatch(/workspace 101: webhook \d+ was created/);
    const journal = (await http(s, 'GET', '/_sandbox/requests')).body;
    expect(journal.results.filter((e: any) => e.method !== 'GET' && e.path !== '/api/v3/token')).toEqual([]);
    expect(recipesOf(s, 101)).toEqual([]);

    // The same saved plan applied a second time: what the first apply did is a move too.
    const out2 = writeFile('plan2.json', '');
    expect((await cli(s, ['plan', '-f', f, '--out', out2])).code).toBe(0);
    expect((await cli(s, ['apply', out2, '--yes', ...FAST])).code).toBe(0);
    const twice = await cli(s, ['apply', out2, '--yes', ...FAST]);
    expect(twice.code).toBe(6);
    expect(twice.stderr).toMatch(/recipe \d+ was created/);
  });

  it('bad input: neither or both of a plan and -f, a file that is not a saved plan, -w or --prune with a plan (exit 2)', async () => {
    const s = await fresh();
    const f = writeFile('fleet.yaml', fleet(s));
    const out = writeFile('plan.json', '');
    expect((await cli(s, ['plan', '-f', f, '--out', out])).code).toBe(0);
    await http(s, 'DELETE', '/_sandbox/requests');
    const cases: Array<[string[], RegExp]> = [
      [['apply', '--yes'], /name what to apply/],
      [['apply', out, '-f', f, '--yes'], /name what to apply/],
      [['apply', f, '--yes'], /is not a saved plan/],
      [['apply', out, '--yes', '--prune'], /give --prune to `edp plan -f \S+ --out \S+`, not to apply/],
      [['apply', out, '--yes', '-w', '101'], /give -w to `edp plan -f \S+ --out \S+`, not to apply/],
      [['apply', '/nonexistent/plan.json', '--yes'], /saved plan: cannot read \/nonexistent\/plan.json: no such file/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(s, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await http(s, 'GET', '/_sandbox/requests')).body.results).toEqual([]);
  });
});

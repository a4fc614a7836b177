import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, control, http, sandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';

/**
 * The fleet file's extracts, destinations, accounts and tables: planned exactly, applied, and
 * planned again with nothing left; exported so that a plan of the export changes nothing; the
 * contract's refusals blocked with their way out; a saved plan refused when one of them moved.
 */

const writeFile = useFiles('edp-fleet-kinds-');

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(() => sb.close());
beforeEach(() => control(sb, 'POST', '/reset'));

const SECRET = 'wJalrXUtnFEMI-fleet-kinds-secret';
const state = () => sb.store.state as any;
const connectionOf = (ws: number, ds: string) =>
  state().connections.find((c: any) => c.workspace_id === ws && c.datasource_name === ds && !c.deleted);
const accountsOf = (ws: number, ds: string) =>
  state().accounts.filter((a: any) => a.connection_id === connectionOf(ws, ds).id);
const templateId = (title: string) => state().extract_templates.find((t: any) => t.title === title).id;

const FLEET = `workspaces: [101, 102]
extracts:
  - template: Facebook Ads Campaign performance
    data_source: facebook_ads
    accounts: [all-active]
    schedule: weekly
destinations:
  - destination: s3
    title: Lake
    params: {bucket: agency-lake, region: eu-west-1, aws_access_key_id: AKIAFLEETKINDS, aws_secret_access_key: ${SECRET}}
accounts:
  - data_source: google_ads
    enabled: [all-active]
tables:
  - table: Google Ads campaigns
    selected_fields: [date, campaign_id, campaign_name, impressions, clicks]
`;

/** `resource:action:name` of every change of a `plan --json` document, and `resource:code:name` of what is blocked. */
function listed(doc: any) {
  const parts = [...doc.workspaces, doc.agency];
  for (const p of parts) expect(p.error, JSON.stringify(p.error)).toBeNull();
  return {
    changes: parts.flatMap((p) => p.changes.map((c: any) => `${c.resource}:${c.action}:${c.name}`)).sort(),
    blocked: parts.flatMap((p) => p.blocked.map((b: any) => `${b.resource}:${b.code}:${b.name}`)).sort(),
    all: parts.flatMap((p) => p.changes),
  };
}

describe('fleet kinds: extracts, destinations, accounts, tables', () => {
  it('plans each kind exactly, applies it, and a second plan has nothing left to do', async () => {
    const f = writeFile('fleet.yaml', FLEET);
    const plan = await cli(sb, ['plan', '-f', f, '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const got = listed(plan.json());
    const per = (ws: number) => {
      const fb = accountsOf(ws, 'facebook_ads').filter((a: any) => a.is_active);
      const g = accountsOf(ws, 'google_ads');
      return [
        ...fb.map(() => 'extract:create:Facebook Ads Campaign performance'),
        'destination:create:Lake',
        ...(g.some((a: any) => a.is_active !== a.enabled_for_embedded_extraction) ? ['account:update:google_ads'] : []),
        'table:update:Google Ads campaigns',
      ];
    };
    expect(got.changes).toEqual([...per(101), ...per(102)].sort());
    expect(got.blocked).toEqual([]);
    const table = got.all.find((c: any) => c.resource === 'table');
    expect(table.detail).toMatchObject({ add: [], remove: ['spend', 'ctr', 'conversions'] });
    const enable = got.all.find((c: any) => c.resource === 'account').detail;
    expect(enable.enable.every((a: string) => a.startsWith('remote:'))).toBe(true);
    // The secret is sent, never shown: neither in the JSON plan nor in the text.
    const destination = got.all.find((c: any) => c.resource === 'destination');
    expect(destination.detail.params).toMatchObject({ bucket: 'agency-lake', aws_secret_access_key: '(secret)' });
    const text = await cli(sb, ['plan', '-f', f]);
    expect(plan.stdout + text.stdout).not.toContain(SECRET);
    expect(text.stdout).toContain(
      '+ extract "Facebook Ads Campaign performance": create for facebook_ads account remote:',
    );
    expect(text.stdout).toContain('~ table "Google Ads campaigns"');

    const apply = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).not.toContain(SECRET);
    const lake = state().destination_connections.find((d: any) => d.workspace_id === 101 && d.title === 'Lake');
    expect(lake.connection_params).toMatchObject({ bucket: 'agency-lake', aws_secret_access_key: SECRET });
    const made = state().extracts.filter(
      (e: any) => e.workspace_id === 101 && e.template_id === templateId('Facebook Ads Campaign performance'),
    );
    expect(made.length).toBe(accountsOf(101, 'facebook_ads').filter((a: any) => a.is_active).length);
    // One table for the template's extracts, as the service's tables hold many accounts.
    expect(new Set(made.map((e: any) => e.data_table_id)).size).toBe(1);
    expect(made.every((e: any) => e.schedule === 'weekly')).toBe(true);

    const again = await cli(sb, ['plan', '-f', f, '--json', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(listed(again.json())).toMatchObject({ changes: [], blocked: [] });
  });

  it('an export of every workspace plans no change for any kind', async () => {
    const out = writeFile('export.yaml', '');
    const exported = await cli(sb, ['export', '--all-workspaces', '--output', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout + exported.stderr).toMatch(
      /1 extract entry, 3 destination entries, 4 accounts entries, 1 table entry/,
    );
    const text = readFileSync(out, 'utf8');
    for (const section of ['extracts:', 'destinations:', 'accounts:', 'tables:']) expect(text).toContain(section);
    // The service never shows a secret: the export cannot hold one.
    expect(text).not.toMatch(/aws_secret_access_key|AKIASANDBOX/);
    const plan = await cli(sb, ['plan', '-f', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).toContain('No changes');
  });

  it('a plan with nothing to do reads no remote account ids; one that names or changes accounts does', async () => {
    const f = writeFile('quiet.yaml', FLEET);
    expect((await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST])).code).toBe(0);
    const v3Lists = async () => {
      const journal = (await http(sb, 'GET', '/_sandbox/requests')).body.results as Array<{ path: string }>;
      await http(sb, 'DELETE', '/_sandbox/requests');
      return journal.filter((r) => /^\/api\/v3\/connections\/\d+\/accounts$/.test(r.path)).length;
    };
    await v3Lists();
    expect((await cli(sb, ['plan', '-f', f, '-w', '101', '--detailed-exitcode'])).code).toBe(0);
    expect(await v3Lists()).toBe(0);
    writeFileSync(f, FLEET.replace('enabled: [all-active]', 'enabled: []'));
    const plan = await cli(sb, ['plan', '-f', f, '-w', '101', '--json']);
    expect(plan.json().workspaces[0].changes[0].detail.disable[0]).toMatch(/^remote:/);
    expect(await v3Lists()).toBeGreaterThan(0);
  });

  it('--prune deletes none of the kinds: the contract has no delete for them', async () => {
    const f = writeFile('prune.yaml', FLEET);
    expect((await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST])).code).toBe(0);
    const [first] = accountsOf(101, 'facebook_ads').filter((a: any) => a.is_active);
    writeFileSync(
      f,
      FLEET.replace(
        'accounts: [all-active]\n    schedule',
        `accounts: [remote:${first.account_id}]\n    schedule`,
      ).replace(/destinations:\n[\s\S]*?accounts:/, 'destinations: []\naccounts:'),
    );
    const plan = await cli(sb, ['plan', '-f', f, '--json', '--prune', '-w', '101']);
    const [w] = plan.json().workspaces;
    expect(w.changes).toEqual([]);
    expect(w.notes.map((n: any) => n.code)).toContain('extract_not_in_file');
    expect(w.notes[0].message).toMatch(/the service has no delete for extracts.*edp extracts pause \d+ -w 101/);
  });

  it('an edit of each kind plans exactly that change', async () => {
    const f = writeFile('edits.yaml', FLEET);
    expect((await cli(sb, ['apply', '-f', f, '--yes', ...FAST])).code).toBe(0);
    const edited = FLEET.replace('schedule: weekly', 'schedule: daily\n    workspaces: [101]')
      .replace('region: eu-west-1', 'region: us-east-2')
      .replace('enabled: [all-active]', `enabled: [remote:${accountsOf(101, 'google_ads')[0].account_id}]`)
      .replace('impressions, clicks]', 'impressions, spend]');
    writeFileSync(f, edited);
    const plan = await cli(sb, ['plan', '-f', f, '--json', '-w', '101']);
    expect(plan.code, plan.stderr).toBe(0);
    const got = listed(plan.json());
    const extracts = accountsOf(101, 'facebook_ads').filter((a: any) => a.is_active).length;
    expect(got.changes).toEqual(
      [
        'account:update:google_ads',
        'destination:update:Lake',
        ...Array(extracts).fill('extract:update:Facebook Ads Campaign performance'),
        'table:update:Google Ads campaigns',
      ].sort(),
    );
    const by = (r: string) => got.all.find((c: any) => c.resource === r).detail;
    expect(by('extract').schedule).toEqual({ was: 'weekly', now: 'daily' });
    expect(by('destination')).toEqual({
      destination: 's3',
      params: { region: { was: 'eu-west-1', now: 'us-east-2' } },
      secrets: [],
    });
    expect(by('account').enable).toEqual([]);
    expect(by('account').disable.length).toBeGreaterThan(0);
    expect(by('table')).toMatchObject({ add: ['spend'], remove: ['clicks'] });
    expect((await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST])).code).toBe(0);
    const again = await cli(sb, ['plan', '-f', f, '--json', '-w', '101']);
    expect(listed(again.json())).toMatchObject({ changes: [], blocked: [] });
  });

  it("blocks what the contract refuses, with the way out: a dimension deselected, secret fields apart, a service's pause", async () => {
    const f = writeFile('refused.yaml', FLEET);
    expect((await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST])).code).toBe(0);
    const e = state().extracts.find(
      (x: any) => x.workspace_id === 101 && x.template_id === templateId('Facebook Ads Campaign performance'),
    );
    Object.assign(e, { is_paused: true, pause_reason: 'connection_deleted' });
    writeFileSync(
      f,
      FLEET.replace('schedule: weekly', 'schedule: weekly\n    paused: false')
        .replace('campaign_id, ', '')
        .replace(`, aws_secret_access_key: ${SECRET}`, '')
        .replace('title: Lake', 'title: Second lake'),
    );
    const plan = await cli(sb, ['plan', '-f', f, '--json', '-w', '101']);
    // Each is a refusal of the contract: exit 6.
    expect(plan.code).toBe(6);
    const [w] = plan.json().workspaces;
    const blocked = Object.fromEntries(w.blocked.map((b: any) => [b.code, b.message]));
    expect(Object.keys(blocked).sort()).toEqual([
      'dimension_deselect_not_allowed',
      'extract_paused_by_service',
      'secret_fields_incomplete',
    ]);
    expect(blocked.dimension_deselect_not_allowed).toMatch(
      /campaign_id cannot be deselected.*add it to selected_fields/,
    );
    expect(blocked.extract_paused_by_service).toMatch(/connection_deleted.*edp iframe-url/);
    expect(blocked.secret_fields_incomplete).toMatch(/aws_access_key_id without aws_secret_access_key/);
    // The other extracts are still in step: nothing else is planned.
    expect(w.changes).toEqual([]);
    const apply = await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST]);
    expect(apply.code).toBe(6);
    expect(apply.stdout).toContain('blocked');
  });

  it('sends the secret fields of an existing connection again only with --send-secrets, all together', async () => {
    const f = writeFile('secrets.yaml', FLEET);
    expect((await cli(sb, ['apply', '-f', f, '--yes', '-w', '101', ...FAST])).code).toBe(0);
    writeFileSync(f, FLEET.replace(SECRET, 'rotated-secret-value'));
    const quiet = await cli(sb, ['plan', '-f', f, '--json', '-w', '101']);
    expect(listed(quiet.json()).changes).toEqual([]);
    const send = await cli(sb, ['plan', '-f', f, '--send-secrets', '-w', '101']);
    expect(send.stdout).toContain(
      '~ destination "Lake" (', // its id
    );
    expect(send.stdout).toContain('send secret fields aws_access_key_id, aws_secret_access_key (--send-secrets)');
    expect(send.stdout).not.toContain('rotated-secret-value');
    expect((await cli(sb, ['apply', '-f', f, '--send-secrets', '--yes', '-w', '101', ...FAST])).code).toBe(0);
    const lake = state().destination_connections.find((d: any) => d.workspace_id === 101 && d.title === 'Lake');
    expect(lake.connection_params.aws_secret_access_key).toBe('rotated-secret-value');
  });

  it('a secret parameter from the environment is shown by its name and sent as itself, from a saved plan too', async () => {
    const env = { LAKE_SECRET: 'env-secret-of-the-lake' };
    const f = writeFile('env.yaml', FLEET.replace(SECRET, '"${env.LAKE_SECRET}"'));
    const saved = writeFile('env-plan.json', '');
    const plan = await cli(sb, ['plan', '-f', f, '--out', saved, '-w', '101'], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('aws_secret_access_key=(from env LAKE_SECRET)');
    expect(plan.stdout + readFileSync(saved, 'utf8')).not.toContain(env.LAKE_SECRET);
    const apply = await cli(sb, ['apply', saved, '--yes', ...FAST], { env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain(env.LAKE_SECRET);
    const lake = state().destination_connections.find((d: any) => d.workspace_id === 101 && d.title === 'Lake');
    expect(lake.connection_params.aws_secret_access_key).toBe(env.LAKE_SECRET);
  });

  it("a client's new workspace gets its destination connections; its extracts wait for a connection", async () => {
    const f = writeFile(
      'client.yaml',
      `clients:\n  - title: Kinds Client\n${FLEET.replace('workspaces: [101, 102]\n', '').split('tables:')[0]}`,
    );
    const plan = await cli(sb, ['plan', '-f', f, '--json']);
    const got = listed(plan.json());
    expect(got.changes).toEqual(['destination:create:Lake', 'workspace:create:Kinds Client']);
    expect(got.blocked).toEqual([
      'account:connection_not_found:google_ads',
      'extract:connection_not_found:Facebook Ads Campaign performance',
    ]);
    const apply = await cli(sb, ['apply', '-f', f, '--yes', ...FAST]);
    expect(apply.code).toBe(5);
    const ws = state().workspaces.find((w: any) => w.title === 'Kinds Client');
    expect(
      state()
        .destination_connections.filter((d: any) => d.workspace_id === ws.id)
        .map((d: any) => d.title),
    ).toEqual(['Lake']);
  });

  it("an extract a recipe's build made in the same apply is taken, not made twice", async () => {
    // Active, not selected for extraction: the demo has no extract of it.
    const remote = accountsOf(101, 'google_ads')[1].account_id;
    const f = writeFile(
      'recipe-and-extract.yaml',
      `workspaces: [101]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remote}]
extracts:
  - template: Google Ads Campaign performance
    data_source: google_ads
    accounts: [remote:${remote}]
    schedule: daily
`,
    );
    const apply = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(apply.code, apply.stderr).toBe(0);
    const row = apply.json().find((r: any) => r.resource === 'extract');
    expect(row.note).toContain('was there already');
    const account = accountsOf(101, 'google_ads')[1].id;
    expect(state().extracts.filter((e: any) => e.account_entity_id === account)).toHaveLength(1);
    const again = await cli(sb, ['plan', '-f', f, '--json']);
    const [w] = again.json().workspaces;
    expect([w.changes, w.blocked]).toEqual([[], []]);
    // The demo's extracts of the template stay, as notes; none of them is the account's.
    expect(w.notes.map((n: any) => n.code)).toEqual([
      'extract_not_in_file',
      'extract_not_in_file',
      'extract_not_in_file',
    ]);
    expect(JSON.stringify(w.notes)).not.toContain(remote);
  });

  it('a saved plan is refused when an object of the kinds moved, naming it', async () => {
    const f = writeFile('saved.yaml', FLEET);
    const saved = writeFile('saved-plan.json', '');
    expect((await cli(sb, ['plan', '-f', f, '--out', saved, '-w', '101'])).code).toBe(0);
    const table = state().data_tables.find((t: any) => t.workspace_id === 101 && t.title === 'Google Ads campaigns');
    table.selected_fields = ['date', 'campaign_id', 'campaign_name', 'spend'];
    const apply = await cli(sb, ['apply', saved, '--yes', ...FAST]);
    expect(apply.code).toBe(6);
    expect(apply.stderr).toContain(`workspace 101: table ${table.id} changed`);
  });
});

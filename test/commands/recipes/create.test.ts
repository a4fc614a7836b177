import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tempDir, tokenFor } from '../../helpers.js';
import { holdWrites } from '../../fixtures/held-writes.js';
import { V31, builtRecipe, configuration, configure, createRecipe, demo, resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
const files = tempDir('edp-recipes-');
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
  token = await tokenFor(sb, 101);
});
afterAll(async () => {
  await sb.close();
  files.remove();
});
beforeEach(() => {
  resetRecipes(sb);
  sb.store.state.agency.flags.recipe_pipeline = true;
});

const W = ['-w', '101'];
const FAST = ['--poll-interval', '10ms'];
const g = () => demo(sb, 101, 'google_ads');
const remoteOf = (id: number) => sb.store.state.accounts.find((a) => a.id === id)!.account_id;
function file(name: string, text: string): string {
  const p = join(files.dir, name);
  writeFileSync(p, text);
  return p;
}

describe('edp recipes templates / template', () => {
  it('lists templates as JSON and filters by --search', async () => {
    const r = await cli(sb, ['recipes', 'templates', ...W, '--search', 'funnel', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.id)).toEqual([4003]);
    const piped = await cli(sb, ['recipes', 'templates', ...W]);
    expect(piped.stdout.split('\n')[0]).toBe('4001\tPaid Media Performance\tprogressive\timprovado\tgoogle_ads, facebook_ads, linkedin_ads\tPaid media');
  });

  it('refuses a blank --search before sending (exit 2)', async () => {
    const r = await cli(sb, ['recipes', 'templates', ...W, '--search', ' ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--search');
  });

  it('shows one template; an unknown one is exit 5 with the code and trace id', async () => {
    const r = await cli(sb, ['recipes', 'template', '4003', ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.stdout).toMatch(/Build mode\s+progressive/);
    expect(r.stdout).toMatch(/Output columns\s+\(none listed\)/);
    const missing = await cli(sb, ['recipes', 'template', '999', ...W]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/404 not_found/);
    expect(missing.stderr).toMatch(/trace id: [0-9a-f]+/);
  });

  it('needs a workspace (exit 2) and answers 403 as exit 4 when the agency has the pipeline off', async () => {
    const none = await cli(sb, ['recipes', 'templates']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--workspace');
    sb.store.state.agency.flags.recipe_pipeline = false;
    const off = await cli(sb, ['recipes', 'list', ...W]);
    expect(off.code).toBe(4);
    expect(off.stderr).toMatch(/403 permission_denied/);
  });
});

describe('edp recipes create / list / get', () => {
  it('creates a recipe; its id beyond 2^53 round-trips exactly through get and list', async () => {
    const created = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', 'Paid media', '--json']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/"recipe_id": 9007199254740993/);
    const got = await cli(sb, ['recipes', 'get', '9007199254740993', ...W, '--json']);
    expect(got.stdout).toMatch(/"recipe_id": 9007199254740993,/);
    const listed = await cli(sb, ['recipes', 'list', ...W]);
    // Piped: the raw state, empty when never built (on a terminal: "not built").
    expect(listed.stdout.split('\t').slice(0, 4)).toEqual(['9007199254740993', 'Paid media', '4001', '']);
  });

  it('maps create refusals: recipe_already_exists exit 6 with the ids, template_not_found exit 2, template_not_deployable exit 6', async () => {
    const id = await createRecipe(sb, token, 4001);
    const dup = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', 'x']);
    expect(dup.code).toBe(6);
    expect(dup.stderr).toContain('409 recipe_already_exists');
    expect(dup.stderr).toContain(`existing_recipe_ids: [${id}]`);
    const unknown = await cli(sb, ['recipes', 'create', ...W, '--template', '999', '--title', 'x', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.errorJson().error).toMatchObject({ status: 400, code: 'template_not_found', details: { template_id: 999 } });
    const draft = await cli(sb, ['recipes', 'create', ...W, '--template', '4007', '--title', 'x']);
    expect(draft.code).toBe(6);
    expect(draft.stderr).toContain('template_not_deployable');
  });

  it('view_name_taken is exit 6 naming the output table and the recipe holding it', async () => {
    const holder = await createRecipe(sb, token, 4001);
    const r = await cli(sb, ['recipes', 'create', ...W, '--template', '4006', '--title', 'copy']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409 view_name_taken');
    expect(r.stderr).toContain('view_name: paid_media_performance');
    expect(r.stderr).toContain(`conflicting_recipe_ids: [${holder}]`);
  });

  it('destination_not_supported is exit 6', async () => {
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    dc.destination_name = 'sftp';
    try {
      const r = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', 'x']);
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('409 destination_not_supported');
    } finally {
      dc.destination_name = 's3';
    }
  });

  it('repeats a create refused with data_table_reservation_failed (nothing was created)', async () => {
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { data_table_reservation_failed: 1 } });
    const r = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', 'x', '--json']);
    expect(r.code).toBe(0);
    expect(sb.store.state.recipes).toHaveLength(1);
  });

  it('refuses a bad title or template id before sending (exit 2)', async () => {
    const r = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title');
    const t = await cli(sb, ['recipes', 'create', ...W, '--template', 'abc', '--title', 'x']);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('--template');
    expect(sb.store.state.recipes).toHaveLength(0);
  });

  it('lists with --state and --template; an unknown --state is refused locally', async () => {
    await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    await createRecipe(sb, token, 4002);
    const ready = await cli(sb, ['recipes', 'list', ...W, '--state', 'ready_to_work', '--json']);
    expect(ready.json().map((r: any) => r.template_id)).toEqual([4001]);
    const byTemplate = await cli(sb, ['recipes', 'list', ...W, '--template', '4002', '--json']);
    expect(byTemplate.json().map((r: any) => r.template_id)).toEqual([4002]);
    const bad = await cli(sb, ['recipes', 'list', ...W, '--state', 'Ready to work']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--state must be one of extracting_data, building_dependencies, ready_to_work, failed/);
  });

  it('get shows state, error code, stage and message, and per-source not-delivered reasons', async () => {
    await http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body: { datasource_name: 'facebook_ads', behavior: 'fails' } });
    const { id } = await builtRecipe(sb, token, 101, 4002, { google_ads: 'all', facebook_ads: 'all' });
    const r = await cli(sb, ['recipes', 'get', id, ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/State\s+failed/);
    expect(r.stdout).toMatch(/Error\s+no_data_delivered \(extraction, facebook_ads\): /);
    expect(r.stdout).toMatch(/facebook_ads {2}failed, 5 not delivered/);
    expect(r.stdout).toMatch(/extraction \d+, account \d+: extraction_failed/);
  });

  it('flags a degraded recipe in the list and shows unknown states as they come', async () => {
    await http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body: { account_id: g().accounts[0], behavior: 'never_delivers' } });
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const listed = await cli(sb, ['recipes', 'list', ...W], { tty: true });
    expect(listed.stdout).toContain('ready_to_work (degraded)');
    (sb.store.state.recipes[0] as any).state = 'queued_for_build';
    const odd = await cli(sb, ['recipes', 'get', id, ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(odd.code).toBe(0);
    expect(odd.stdout).toMatch(/State\s+queued_for_build/);
  });
});

describe('edp recipes configure', () => {
  let id: string;
  beforeEach(async () => {
    id = await createRecipe(sb, token, 4001);
  });
  const stored = () => sb.store.state.recipes.find((r) => r.id === id)!;

  it('adds accounts by remote id, then appends more, keeping what was there', async () => {
    const [a, b, c] = g().accounts;
    const first = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', `remote:${remoteOf(a!)},remote:${remoteOf(b!)}`, '--json']);
    expect(first.code).toBe(0);
    expect(first.json().connections[0].accounts).toEqual([{ id: a }, { id: b }]);
    const more = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', String(c), '--accounts', String(a)]);
    expect(more.code).toBe(0);
    expect(stored().connections[0]!.account_ids).toEqual([a, b, c]);
    const again = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', String(c)]);
    expect(again.stderr).toContain('nothing sent');
  });

  it('takes a complete configuration from a YAML file', async () => {
    const [a, b] = g().accounts;
    const path = file('config.yaml', `data_sources: [google_ads]\nconnections:\n  - connection_id: ${g().connection}\n    connection_data_source: google_ads\n    accounts: [{id: ${a}}, {id: ${b}}]\nsync_from_date: 2024-01-01\n`);
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(0);
    expect(stored()).toMatchObject({ sync_from_date: '2024-01-01', connections: [{ account_ids: [a, b] }] });
  });

  it('refuses a removal locally with the service\'s code and sends nothing (exit 6)', async () => {
    const [a, b] = g().accounts;
    await configure(sb, token, id, configuration(sb, 101, { google_ads: [a!, b!] }));
    const before = stored().configured_at;
    const path = file('less.json', JSON.stringify(configuration(sb, 101, { google_ads: [b!] })));
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`account_removal_not_allowed: Accounts cannot be removed; only new ones may be added: ${a} of connection ${g().connection} (google_ads)`);
    expect(r.stderr).toContain('nothing was sent');
    expect(stored().configured_at).toBe(before);
    const noSource = file('nosource.json', JSON.stringify({ data_sources: [], connections: [] }));
    const r2 = await cli(sb, ['recipes', 'configure', id, ...W, '--file', noSource]);
    expect(r2.stderr).toContain('data_source_removal_not_allowed');
  });

  it('two concurrent configures appending different accounts both succeed; the recipe holds both', async () => {
    const [a, b, c] = g().accounts;
    await configure(sb, token, id, configuration(sb, 101, { google_ads: [a!] }));
    // Both read the recipe before either writes: the second PUT leaves out the first one's account.
    const proxy = await holdWrites(sb.url, 2, (method, path) => method === 'PUT' && path.startsWith(`${V31}${id}/`));
    try {
      const [one, two] = await Promise.all([
        cli(proxy, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', String(b), '--json']),
        cli(proxy, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', String(c), '--json']),
      ]);
      expect([one.code, two.code]).toEqual([0, 0]);
      expect(new Set(stored().connections[0]!.account_ids)).toEqual(new Set([a, b, c]));
      expect(stored().connections[0]!.account_ids[0]).toBe(a);
    } finally {
      await proxy.close();
    }
  });

  it('a removal the user asks for is still refused after a concurrent append (exit 6)', async () => {
    const [a, b, c] = g().accounts;
    await configure(sb, token, id, configuration(sb, 101, { google_ads: [a!, b!] }));
    const path = file('drop-b.json', JSON.stringify(configuration(sb, 101, { google_ads: [a!, c!] })));
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('account_removal_not_allowed');
    expect(stored().connections[0]!.account_ids).toEqual([a, b]);
  });

  it('names the field of a bad file and the flags when inputs are missing (exit 2)', async () => {
    const path = file('bad.yaml', `data_sources: [google_ads]\nconnections:\n  - connection_id: x\n    connection_data_source: google_ads\n    accounts: []\n`);
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connections[0].connection_id: must be a positive integer id');
    expect(r.stderr).toContain('connections[0].accounts: needs at least one account');
    const none = await cli(sb, ['recipes', 'configure', id, ...W]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--file');
    const both = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path, '--data-source', 'google_ads']);
    expect(both.code).toBe(2);
    const badDate = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', 'all-active', '--sync-from', '2024-13-01']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--sync-from');
  });

  it('checks the file\'s own rules before sending: a connection\'s data source not selected, a connection or account twice', async () => {
    const [a] = g().accounts;
    const conn = { connection_id: g().connection, connection_data_source: 'google_ads', accounts: [{ id: a }, { id: a }] };
    const path = file('rules.json', JSON.stringify({ data_sources: ['facebook_ads'], connections: [conn, conn] }));
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connections[0].connection_data_source: "google_ads" is not in data_sources (connection_data_source_not_selected)');
    expect(r.stderr).toContain('connections[1]: connection ' + g().connection + ' (google_ads) is listed twice (duplicate_connection)');
    expect(r.stderr).toContain('connections[0].accounts[1].id: account ' + a + ' is listed twice');
    expect(stored().connections).toEqual([]);
  });

  it('sends a data source the file lists without a connection; the service answers data_source_without_connection (exit 2)', async () => {
    const path = file('noconn.json', JSON.stringify({ ...configuration(sb, 101, { google_ads: 'all' }), data_sources: ['google_ads', 'facebook_ads'] }));
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400 data_source_without_connection');
    expect(r.stderr).toContain('data_sources: ["facebook_ads"]');
  });

  it('shows the service\'s configuration refusals: data_source_not_allowed and account_unavailable (exit 2)', async () => {
    const ga = demo(sb, 101, 'google_analytics_4');
    const notAllowed = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_analytics_4', '--accounts', String(ga.accounts[0])]);
    expect(notAllowed.code).toBe(2);
    expect(notAllowed.stderr).toContain('400 data_source_not_allowed');
    expect(notAllowed.stderr).toContain('data_sources: ["google_analytics_4"]');
    const path = file('inactive.json', JSON.stringify(configuration(sb, 101, { google_ads: [g().inactive] })));
    const inactive = await cli(sb, ['recipes', 'configure', id, ...W, '--file', path]);
    expect(inactive.code).toBe(2);
    expect(inactive.stderr).toContain('400 account_unavailable');
  });

  it('an account selector that does not resolve is exit 5 and nothing is sent', async () => {
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', 'remote:nope']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('remote:nope');
    expect(stored().connections).toEqual([]);
  });

  it('repeats a configuration refused with account_check_unavailable (nothing was saved)', async () => {
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { account_check_unavailable: 1 } });
    const r = await cli(sb, ['recipes', 'configure', id, ...W, '--data-source', 'google_ads', '--accounts', 'all-active']);
    expect(r.code).toBe(0);
    expect(stored().connections[0]!.account_ids).toHaveLength(5);
  });
});

describe('edp recipes build / resetup / poll', () => {
  it('build of a recipe never configured is exit 6 recipe_not_configured', async () => {
    const id = await createRecipe(sb, token, 4001);
    const r = await cli(sb, ['recipes', 'build', id, ...W]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409 recipe_not_configured');
  });

  it('build starts (202) and a second build is exit 6 build_already_running; --wait ends ready (exit 0)', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    const started = await cli(sb, ['recipes', 'build', id, ...W, '--json']);
    expect(started.code).toBe(0);
    expect(started.json().state).toBe('extracting_data');
    const again = await cli(sb, ['recipes', 'build', id, ...W]);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('build_already_running');
    const polled = await cli(sb, ['recipes', 'poll', id, ...W, ...FAST, '--json']);
    expect(polled.code).toBe(0);
    expect(polled.json().state).toBe('ready_to_work');
    const waited = await cli(sb, ['recipes', 'build', id, ...W, '--wait', ...FAST], { tty: true, env: { NO_COLOR: '1' } });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/State\s+ready_to_work/);
  });

  it('exit 7 when the build fails, with the error code in the message', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    await http(sb, 'POST', '/_sandbox/recipes/build-errors', { body: { recipe_id: id, code: 'sql_syntax_error' } });
    const r = await cli(sb, ['recipes', 'build', id, ...W, '--wait', ...FAST]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('sql_syntax_error (transformation_build)');
    const polled = await cli(sb, ['recipes', 'poll', id, ...W, ...FAST]);
    expect(polled.code).toBe(7);
  });

  it('exit 9 for a degraded build with --fail-on-degraded, 0 without', async () => {
    await http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body: { account_id: g().accounts[0], behavior: 'fails' } });
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    const r = await cli(sb, ['recipes', 'build', id, ...W, '--wait', '--fail-on-degraded', ...FAST]);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('degraded (extraction_failed)');
    const plain = await cli(sb, ['recipes', 'poll', id, ...W, ...FAST]);
    expect(plain.code).toBe(0);
  });

  it('exit 8 when the build outlasts --wait-timeout', async () => {
    await http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body: { datasource_name: 'google_ads', behavior: 'never_delivers' } });
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    const r = await cli(sb, ['recipes', 'build', id, ...W, '--wait', '--wait-timeout', '20ms', ...FAST]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`edp recipes poll ${id}`);
    const bad = await cli(sb, ['recipes', 'poll', id, ...W, '--wait-timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--wait-timeout');
  });

  it('resetup --wait ends ready; a template no longer deployable is exit 6 recipe_template_unavailable', async () => {
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const r = await cli(sb, ['recipes', 'resetup', id, ...W, '--wait', ...FAST, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().state).toBe('ready_to_work');
    sb.store.state.recipe_templates.find((t) => t.id === 4001)!.deployable = false;
    try {
      const gone = await cli(sb, ['recipes', 'resetup', id, ...W]);
      expect(gone.code).toBe(6);
      expect(gone.stderr).toContain('recipe_template_unavailable');
    } finally {
      sb.store.state.recipe_templates.find((t) => t.id === 4001)!.deployable = true;
    }
  });
});

describe('edp recipes extractions', () => {
  it('prints the check; a destination that cannot report is exit 1 (501), none active is exit 6', async () => {
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const r = await cli(sb, ['recipes', 'extractions', id, ...W, '--json']);
    expect(r.json()).toMatchObject({ all_tables_exist: true, tables: [{ data_source: 'google_ads', table_exists: true }] });
    const human = await cli(sb, ['recipes', 'extractions', id, ...W]);
    expect(human.stderr).toContain('All tables exist.');
    // 503 destination_unavailable: a read, repeated after Retry-After
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 1 } });
    const retried = await cli(sb, ['recipes', 'extractions', id, ...W, '--json']);
    expect(retried.code).toBe(0);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 9 } });
    const down = await cli(sb, ['recipes', 'extractions', id, ...W]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('503 destination_unavailable');
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 0 } });
    const s3 = sb.store.state.destinations.find((d) => d.name === 's3')!;
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    try {
      s3.reports_tables = false;
      const cannot = await cli(sb, ['recipes', 'extractions', id, ...W]);
      expect(cannot.code).toBe(1);
      expect(cannot.stderr).toContain('501 destination_check_unsupported');
      s3.reports_tables = true;
      dc.status = 'paused';
      const none = await cli(sb, ['recipes', 'extractions', id, ...W]);
      expect(none.code).toBe(6);
      expect(none.stderr).toContain('no_active_destination');
    } finally {
      s3.reports_tables = true;
      dc.status = 'active';
    }
  });
});

describe('edp recipes delete', () => {
  it('needs --yes off a terminal; deletes with it; a second delete is exit 5', async () => {
    const id = await createRecipe(sb, token, 4001);
    const refused = await cli(sb, ['recipes', 'delete', id, ...W]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(sb.store.state.recipes).toHaveLength(1);
    const done = await cli(sb, ['recipes', 'delete', id, ...W, '--yes']);
    expect(done.code).toBe(0);
    expect(sb.store.state.recipes).toHaveLength(0);
    const again = await cli(sb, ['recipes', 'delete', id, ...W, '--yes']);
    expect(again.code).toBe(5);
  });

  it('500 delete_incomplete is exit 1 with the recipe id', async () => {
    const id = await createRecipe(sb, token, 4001);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { delete_incomplete: 1 } });
    const r = await cli(sb, ['recipes', 'delete', id, ...W, '--yes', '--json']);
    expect(r.code).toBe(1);
    expect(r.errorJson().error).toMatchObject({ status: 500, code: 'delete_incomplete' });
    expect(r.stderr).toContain(`"recipe_id":${id}`);
  });

  it('another workspace\'s recipe is exit 5 (v3.1 answers 404)', async () => {
    const id = await createRecipe(sb, token, 4001);
    const r = await cli(sb, ['recipes', 'get', id, '-w', '102']);
    expect(r.code).toBe(5);
    expect((await http(sb, 'GET', `${V31}${id}/`, { token })).status).toBe(200);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import {
  cli,
  configuration,
  configure,
  createRecipe,
  holdWrites,
  http,
  recipeDemo,
  tokenFor,
  useFiles,
  V31,
} from '../../support/index.js';
import { useRecipeSandbox, W } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

const g = () => recipeDemo(t.sb, 101, 'google_ads');
const remoteOf = (id: number) => t.sb.store.state.accounts.find((a) => a.id === id)!.account_id;
const file = useFiles('edp-recipes-');

describe('edp recipes configure', () => {
  let id: string;
  beforeEach(async () => {
    id = await createRecipe(t.sb, token, 4001);
  });
  const stored = () => t.sb.store.state.recipes.find((r) => r.id === id)!;

  it('adds accounts by remote id, then appends more, keeping what was there', async () => {
    const [a, b, c] = g().accounts;
    const first = await t.edp(
      'recipes',
      'configure',
      id,
      '--data-source',
      'google_ads',
      '--accounts',
      `remote:${remoteOf(a!)},remote:${remoteOf(b!)}`,
      '--json',
    );
    expect(first.code).toBe(0);
    expect(first.json().connections[0].accounts).toEqual([{ id: a }, { id: b }]);
    const more = await t.edp(
      'recipes',
      'configure',
      id,
      '--data-source',
      'google_ads',
      '--accounts',
      String(c),
      '--accounts',
      String(a),
    );
    expect(more.code).toBe(0);
    expect(stored().connections[0]!.account_ids).toEqual([a, b, c]);
    const again = await t.edp('recipes', 'configure', id, '--data-source', 'google_ads', '--accounts', String(c));
    expect(again.stderr).toContain('nothing sent');
  });

  it('takes a complete configuration from a YAML file', async () => {
    const [a, b] = g().accounts;
    const path = file(
      'config.yaml',
      `data_sources: [google_ads]\nconnections:\n  - connection_id: ${g().connection}\n    connection_data_source: google_ads\n    accounts: [{id: ${a}}, {id: ${b}}]\nsync_from_date: 2024-01-01\n`,
    );
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(0);
    expect(stored()).toMatchObject({ sync_from_date: '2024-01-01', connections: [{ account_ids: [a, b] }] });
  });

  it("refuses a removal locally with the service's code and sends nothing (exit 6)", async () => {
    const [a, b] = g().accounts;
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: [a!, b!] }));
    const before = stored().configured_at;
    const path = file('less.json', JSON.stringify(configuration(t.sb, 101, { google_ads: [b!] })));
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      `account_removal_not_allowed: Accounts cannot be removed; only new ones may be added: ${a} of connection ${g().connection} (google_ads)`,
    );
    expect(r.stderr).toContain('nothing was sent');
    expect(stored().configured_at).toBe(before);
    const noSource = file('nosource.json', JSON.stringify({ data_sources: [], connections: [] }));
    const r2 = await t.edp('recipes', 'configure', id, '--file', noSource);
    expect(r2.stderr).toContain('data_source_removal_not_allowed');
  });

  it('two concurrent configures appending different accounts both succeed; the recipe holds both', async () => {
    const [a, b, c] = g().accounts;
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: [a!] }));
    // Both read the recipe before either writes: the second PUT leaves out the first one's account.
    const proxy = await holdWrites(t.sb.url, 2, (method, path) => method === 'PUT' && path.startsWith(`${V31}${id}/`));
    try {
      const [one, two] = await Promise.all([
        cli(proxy, [
          'recipes',
          'configure',
          id,
          ...W,
          '--data-source',
          'google_ads',
          '--accounts',
          String(b),
          '--json',
        ]),
        cli(proxy, [
          'recipes',
          'configure',
          id,
          ...W,
          '--data-source',
          'google_ads',
          '--accounts',
          String(c),
          '--json',
        ]),
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
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: [a!, b!] }));
    const path = file('drop-b.json', JSON.stringify(configuration(t.sb, 101, { google_ads: [a!, c!] })));
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('account_removal_not_allowed');
    expect(stored().connections[0]!.account_ids).toEqual([a, b]);
  });

  it('names the field of a bad file and the flags when inputs are missing (exit 2)', async () => {
    const path = file(
      'bad.yaml',
      `data_sources: [google_ads]\nconnections:\n  - connection_id: x\n    connection_data_source: google_ads\n    accounts: []\n`,
    );
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connections[0].connection_id: must be a positive integer id');
    expect(r.stderr).toContain('connections[0].accounts: needs at least one account');
    const none = await t.edp('recipes', 'configure', id);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--file');
    const both = await t.edp('recipes', 'configure', id, '--file', path, '--data-source', 'google_ads');
    expect(both.code).toBe(2);
    const badDate = await t.edp(
      'recipes',
      'configure',
      id,
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      '--sync-from-date',
      '2024-13-01',
    );
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--sync-from-date');
  });

  it("checks the file's own rules before sending: a connection's data source not selected, a connection or account twice", async () => {
    const [a] = g().accounts;
    const conn = {
      connection_id: g().connection,
      connection_data_source: 'google_ads',
      accounts: [{ id: a }, { id: a }],
    };
    const path = file('rules.json', JSON.stringify({ data_sources: ['facebook_ads'], connections: [conn, conn] }));
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'connections[0].connection_data_source: "google_ads" is not in data_sources (connection_data_source_not_selected)',
    );
    expect(r.stderr).toContain(
      'connections[1]: connection ' + g().connection + ' (google_ads) is listed twice (duplicate_connection)',
    );
    expect(r.stderr).toContain('connections[0].accounts[1].id: account ' + a + ' is listed twice');
    expect(stored().connections).toEqual([]);
  });

  it('sends a data source the file lists without a connection; the service answers data_source_without_connection (exit 2)', async () => {
    const path = file(
      'noconn.json',
      JSON.stringify({
        ...configuration(t.sb, 101, { google_ads: 'all' }),
        data_sources: ['google_ads', 'facebook_ads'],
      }),
    );
    const r = await t.edp('recipes', 'configure', id, '--file', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400 data_source_without_connection');
    expect(r.stderr).toContain('data_sources: ["facebook_ads"]');
  });

  it("shows the service's configuration refusals: data_source_not_allowed and account_unavailable (exit 2)", async () => {
    const ga = recipeDemo(t.sb, 101, 'google_analytics_4');
    const notAllowed = await t.edp(
      'recipes',
      'configure',
      id,
      '--data-source',
      'google_analytics_4',
      '--accounts',
      String(ga.accounts[0]),
    );
    expect(notAllowed.code).toBe(2);
    expect(notAllowed.stderr).toContain('400 data_source_not_allowed');
    expect(notAllowed.stderr).toContain('data_sources: ["google_analytics_4"]');
    const path = file('inactive.json', JSON.stringify(configuration(t.sb, 101, { google_ads: [g().inactive] })));
    const inactive = await t.edp('recipes', 'configure', id, '--file', path);
    expect(inactive.code).toBe(2);
    expect(inactive.stderr).toContain('400 account_unavailable');
  });

  it('an account selector that does not resolve is exit 5 and nothing is sent', async () => {
    const r = await t.edp('recipes', 'configure', id, '--data-source', 'google_ads', '--accounts', 'remote:nope');
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('remote:nope');
    expect(stored().connections).toEqual([]);
  });

  it('repeats a configuration refused with account_check_unavailable (nothing was saved)', async () => {
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { account_check_unavailable: 1 } });
    const r = await t.edp('recipes', 'configure', id, '--data-source', 'google_ads', '--accounts', 'all-active');
    expect(r.code).toBe(0);
    expect(stored().connections[0]!.account_ids).toHaveLength(5);
  });
});

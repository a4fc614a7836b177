import { beforeEach, describe, expect, it } from 'vitest';
import {
  advanceClock,
  advanceClockOnRead,
  cli,
  control,
  createRecipe,
  FAST,
  holdWrites,
  http,
  keyedFaults,
  recipeDemo,
  resetRecipes,
  sandbox,
  tempDir,
  tokenFor,
  useFiles,
  useRecipeSandbox,
  V31,
} from '../../support/index.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

const BASE = ['recipes', 'deploy', '--template', '4001', '--data-source', 'google_ads', ...FAST];
const remote = (ws: number, i: number) =>
  t.sb.store.state.accounts.find((a) => a.id === recipeDemo(t.sb, ws, 'google_ads').accounts[i])!.account_id;
const recipesOf = (ws: number) => t.sb.store.state.recipes.filter((r) => r.workspace_id === ws);
const file = useFiles('edp-deploy-');

describe('edp recipes deploy: one workspace', () => {
  it('walks the seven steps by template title and prints one row as JSON', async () => {
    const r = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      'Paid Media Performance',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      ...FAST,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const [row] = r.json();
    expect(Object.keys(row)).toEqual([
      'workspace_id',
      'recipe_id',
      'datatable_id',
      'state',
      'degraded',
      'not_delivered_reasons',
      'error',
    ]);
    expect(row).toMatchObject({
      workspace_id: 101,
      state: 'ready_to_work',
      degraded: false,
      not_delivered_reasons: [],
      error: null,
    });
    expect(r.stdout).toMatch(/"recipe_id": 9007199254740993,/);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(r.stderr).toContain(`${n}/7`);
    expect(recipesOf(101)[0]!.connections[0]!.account_ids).toEqual(recipeDemo(t.sb, 101, 'google_ads').accounts);
  });

  it('is safe to run again: adopts, adds nothing twice, starts no second build', async () => {
    const args = ['-w', '101', ...BASE, '--accounts', `remote:${remote(101, 0)}`];
    expect((await cli(t.sb, args)).code).toBe(0);
    const first = structuredClone(recipesOf(101)[0]!);
    await advanceClock(t.sb, 1);
    const again = await cli(t.sb, args);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('adopted recipe');
    expect(again.stderr).toContain('nothing sent');
    expect(recipesOf(101)).toHaveLength(1);
    expect(recipesOf(101)[0]!.last_build_at).toBe(first.last_build_at);
    // more accounts: appended, and built again
    const more = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', `remote:${remote(101, 1)}`, '--json']);
    expect(more.code).toBe(0);
    expect(recipesOf(101)[0]!.connections[0]!.account_ids).toEqual(
      recipeDemo(t.sb, 101, 'google_ads').accounts.slice(0, 2),
    );
    expect(recipesOf(101)[0]!.last_build_at).not.toBe(first.last_build_at);
  });

  it('step 5 reads and merges again when a concurrent configure appended first', async () => {
    const [a, b, c] = recipeDemo(t.sb, 101, 'google_ads').accounts;
    const id = await createRecipe(t.sb, token, 4001);
    await http(t.sb, 'PUT', `${V31}${id}/`, {
      token,
      body: {
        data_sources: ['google_ads'],
        connections: [
          {
            connection_id: recipeDemo(t.sb, 101, 'google_ads').connection,
            connection_data_source: 'google_ads',
            accounts: [{ id: a }],
          },
        ],
      },
    });
    // The deployment and the configure both read the recipe before either writes.
    const proxy = await holdWrites(t.sb.url, 2, (method, path) => method === 'PUT' && path.startsWith(`${V31}${id}/`));
    try {
      const [deployed, configured] = await Promise.all([
        cli(proxy, ['-w', '101', ...BASE, '--accounts', String(b), '--json']),
        cli(proxy, [
          'recipes',
          'configure',
          id,
          '-w',
          '101',
          '--data-source',
          'google_ads',
          '--accounts',
          String(c),
          '--json',
        ]),
      ]);
      expect([deployed.code, configured.code]).toEqual([0, 0]);
      expect(deployed.json()[0]).toMatchObject({ state: 'ready_to_work', error: null });
      expect(new Set(recipesOf(101)[0]!.connections[0]!.account_ids)).toEqual(new Set([a, b, c]));
    } finally {
      await proxy.close();
    }
  });

  it('joins a build that is running instead of starting another', async () => {
    expect((await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active'])).code).toBe(0);
    const id = recipesOf(101)[0]!.id;
    // The build runs until the deployment has joined it; then the clock moves past it.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active'], {
      onStderr: (all) => {
        if (all.includes('6/7 build:')) t.sb.store.clock.settle();
      },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('joined the running build');
  });

  it('adopts through the list when recipe_already_exists names no id', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { existing_ids_lost: 1 } });
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--json']);
    expect(r.code).toBe(0);
    expect(String(r.json()[0].recipe_id)).toBe(id);
    expect(recipesOf(101)).toHaveLength(1);
  });

  it('step 7: when nothing was delivered it waits for the extraction tables and builds once more', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { datasource_name: 'google_ads', behavior: 'slow' },
    });
    // Slow extractions take three build steps, the build waits two: each reading of the recipe
    // or of its extraction check moves the clock a step on.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 10 });
    advanceClockOnRead(t.sb, /^\/api\/v3\.1\/automated-recipes\/:\w+\/(extractions\/)?$/, 10);
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--json']);
    expect(r.code).toBe(0);
    // Not a failure mark: step 7 follows and rescues the build.
    expect(r.stderr).toMatch(/^! 6\/7 built: failed: no_data_delivered.*; step 7 builds once more$/m);
    expect(r.stderr).not.toContain('✗');
    expect(r.stderr).toContain('7/7 extraction tables exist; rebuilt: ready_to_work');
    expect(r.json()[0].state).toBe('ready_to_work');
  });

  it('a failed build is exit 7 with the build error in the row', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { datasource_name: 'google_ads', behavior: 'fails' },
    });
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--json']);
    expect(r.code).toBe(7);
    expect(r.json()[0]).toMatchObject({
      state: 'failed',
      degraded: false,
      not_delivered_reasons: ['extraction_failed'],
      error: { code: 'all_sources_failed', stage: 'extraction' },
    });
  });

  it('step 7 waits at most --wait-timeout for tables that do not come (exit 8, naming them)', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { datasource_name: 'facebook_ads', behavior: 'fails' },
    });
    const r = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101',
      '--file',
      file(
        'atomic.yaml',
        [
          'template: 4002',
          'sources:',
          '  - {data_source: google_ads, accounts: all-active}',
          '  - {data_source: facebook_ads, accounts: all-active}',
        ].join('\n'),
      ),
      '--wait-timeout',
      '2s',
      ...FAST,
      '--json',
    ]);
    expect(r.code).toBe(8);
    expect(r.json()[0]).toMatchObject({ state: 'failed', error: { code: 'command_failed' } });
    expect(r.stderr).toContain('facebook_ads_campaign_performance');
  });

  it('a degraded build is exit 9 with --fail-on-degraded', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: recipeDemo(t.sb, 101, 'google_ads').accounts[0], behavior: 'never_delivers' },
    });
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--fail-on-degraded']);
    expect(r.code).toBe(9);
    // Piped the row says `degraded`; at a terminal, why it failed the run.
    expect(r.stdout.trimEnd().split('\t').at(-1)).toBe('degraded');
    const tty = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--fail-on-degraded'], {
      tty: true,
    });
    expect(tty.code).toBe(9);
    expect(tty.stdout).toContain('degraded (--fail-on-degraded)');
  });

  it('--dry-run lists the requests and sends no write', async () => {
    const r = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'POST /api/v3.1/automated-recipes/ {"template_id":4001,"title":"Paid Media Performance"}',
    );
    expect(r.stdout).toContain('PUT /api/v3.1/automated-recipes/{recipe_id}/ {"data_sources":["google_ads"]');
    expect(r.stdout).toContain('POST /api/v3.1/automated-recipes/{recipe_id}/build/');
    expect(t.sb.store.state.recipes).toHaveLength(0);
    const existing = await createRecipe(t.sb, token, 4001);
    const plan = await cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--dry-run', '--json']);
    expect(plan.json()[0].requests.map((q: any) => `${q.method} ${q.path}`)).toEqual([
      `PUT ${V31}${existing}/`,
      `POST ${V31}${existing}/build/`,
    ]);
    expect(recipesOf(101)[0]!.connections).toEqual([]);
  });

  it('piped, a failed row says a word a script can compare, not display text', async () => {
    const r = await cli(t.sb, ['-w', '103', ...BASE, '--accounts', 'remote:999']);
    expect(r.code).toBe(5);
    const cells = r.stdout.trimEnd().split('\t');
    expect(cells[0]).toBe('103');
    expect(cells.at(-1)).toMatch(/^[a-z_]+$/);
    expect(r.stdout).not.toContain('shown above');
  });

  it('--dry-run that cannot plan ends with the exit code the real run would have: an account not found is 5', async () => {
    const argv = ['-w', '102', ...BASE, '--accounts', 'remote:999'];
    const dry = await cli(t.sb, [...argv, '--dry-run']);
    expect(dry.stdout).toContain('workspace 102: cannot plan:');
    const real = await cli(t.sb, argv);
    expect(real.code).toBe(5);
    expect(dry.code).toBe(real.code);
  });

  it('--concurrency takes a number up to 50 or auto (the default), like EDP_CONCURRENCY; anything else is exit 2', async () => {
    const dryRun = (value: string) =>
      cli(t.sb, ['-w', '101', ...BASE, '--accounts', 'all-active', '--dry-run', '--concurrency', value]);
    for (const value of ['auto', '3']) expect((await dryRun(value)).code).toBe(0);
    for (const value of ['0', '51', 'many']) {
      const r = await dryRun(value);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--concurrency');
    }
    expect(t.sb.store.state.recipes).toHaveLength(0);
  });

  it('refuses locally, before any write: missing inputs off a terminal, a data source the template does not allow, flags beside --file', async () => {
    const missing = await cli(t.sb, ['recipes', 'deploy', '-w', '101']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--template');
    expect(missing.stderr).toContain('--data-source');
    const notAllowed = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      '4001',
      '--data-source',
      'google_analytics_4',
      '--accounts',
      'all-active',
    ]);
    expect(notAllowed.code).toBe(2);
    expect(notAllowed.stderr).toContain('does not allow google_analytics_4');
    const clash = await cli(t.sb, ['recipes', 'deploy', '-w', '101', '--file', 'x.yaml', '--template', '4001']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--template');
    const noTitle = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      'No Such Template',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(noTitle.code).toBe(5);
    expect(t.sb.store.state.recipes).toHaveLength(0);
  });
});

describe('edp recipes deploy: fleets and spec files', () => {
  it('-w 101,102,103 resolves the same remote accounts in each workspace; one row per workspace', async () => {
    const accounts = `remote:${remote(101, 0)},remote:${remote(101, 2)}`;
    const r = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101,102,103',
      '--template',
      '4001',
      '--data-source',
      'google_ads',
      '--accounts',
      accounts,
      '--concurrency',
      '3',
      ...FAST,
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().map((row: any) => [row.workspace_id, row.state])).toEqual([
      [101, 'ready_to_work'],
      [102, 'ready_to_work'],
      [103, 'ready_to_work'],
    ]);
    for (const ws of [101, 102, 103]) {
      const ids = recipesOf(ws)[0]!.connections[0]!.account_ids;
      expect(ids.map((id) => t.sb.store.state.accounts.find((a) => a.id === id)!.account_id)).toEqual([
        remote(101, 0),
        remote(101, 2),
      ]);
    }
    expect(r.stderr).toMatch(/\[102\] ✓ 3\/7 created recipe/);
  });

  it('a failed template read fails only the workspace that made it; the others read again', async () => {
    const accounts = `remote:${remote(101, 0)}`;
    const deploy = (concurrency: string) =>
      cli(t.sb, [
        'recipes',
        'deploy',
        '-w',
        '101,102,103',
        '--template',
        '4001',
        '--data-source',
        'google_ads',
        '--accounts',
        accounts,
        '--concurrency',
        concurrency,
        ...FAST,
        '--json',
      ]);
    for (const concurrency of ['1', '3']) {
      resetRecipes(t.sb);
      expect(
        (await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { template_read_failed: 1 } })).body
          .template_read_failed,
      ).toBe(1);
      const r = await deploy(concurrency);
      expect(r.code).toBe(1);
      const rows = r.json();
      const failed = rows.filter((row: any) => row.error !== null);
      expect(failed).toHaveLength(1);
      expect(failed[0].error).toMatchObject({ status: 500, code: 'internal_error' });
      expect(rows.filter((row: any) => row.state === 'ready_to_work')).toHaveLength(2);
      if (concurrency === '1') expect(failed[0].workspace_id).toBe(101);
    }
  });

  it('a failure in one workspace is its own row and a non-zero exit; the others deploy', async () => {
    const dc = t.sb.store.state.destination_connections.find((d) => d.workspace_id === 103)!;
    dc.status = 'paused';
    try {
      const r = await cli(t.sb, [
        'recipes',
        'deploy',
        '--all-workspaces',
        '--template',
        '4001',
        '--data-source',
        'google_ads',
        '--accounts',
        'all-active',
        ...FAST,
        '--json',
      ]);
      expect(r.code).toBe(6);
      const rows = r.json();
      expect(rows.map((x: any) => x.state)).toEqual(['ready_to_work', 'ready_to_work', null]);
      expect(rows[2]).toMatchObject({
        workspace_id: 103,
        recipe_id: null,
        error: { status: 409, code: 'no_active_destination' },
      });
    } finally {
      dc.status = 'active';
    }
  });

  it("takes a YAML spec; -w on the command line wins over the file's workspaces", async () => {
    const spec = file(
      'deploy.yaml',
      [
        'template: Cross-Channel Spend',
        'title: Spend',
        'sync_from_date: 2024-01-01',
        'workspaces: [101, 102]',
        'sources:',
        '  - data_source: google_ads',
        `    accounts: [remote:${remote(101, 0)}]`,
        '  - data_source: facebook_ads',
        '    accounts: all-active',
      ].join('\n'),
    );
    const r = await cli(t.sb, ['recipes', 'deploy', '--file', spec, '-w', '102', ...FAST, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((x: any) => x.workspace_id)).toEqual([102]);
    expect(recipesOf(102)[0]).toMatchObject({
      title: 'Spend',
      sync_from_date: '2024-01-01',
      data_sources: ['google_ads', 'facebook_ads'],
    });
  });

  it('names every bad field of a spec file (exit 2) and refuses unknown keys', async () => {
    const spec = file(
      'bad.yaml',
      [
        'template: 4001',
        'sources:',
        '  - data_source: google_ads',
        '    accounts: []',
        '    acounts: [all-active]',
        'concurrency: 0',
      ].join('\n'),
    );
    const r = await cli(t.sb, ['recipes', 'deploy', '--file', spec, '-w', '101']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sources[0].accounts: needs at least one account');
    expect(r.stderr).toMatch(/bad\.yaml:5:5: sources\[0\]\.acounts: unknown key .*; did you mean "accounts"\?/);
    expect(r.stderr).toMatch(/concurrency: /);
    const notYaml = await cli(t.sb, ['recipes', 'deploy', '--file', file('x.json', '{"template": '), '-w', '101']);
    expect(notYaml.code).toBe(2);
    expect(t.sb.store.state.recipes).toHaveLength(0);
  });

  it('refuses a connection id for several workspaces', async () => {
    const r = await cli(t.sb, [
      'recipes',
      'deploy',
      '-w',
      '101,102',
      '--template',
      '4001',
      '--data-source',
      'google_ads',
      '--connection',
      '1001',
      '--accounts',
      'all-active',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});

describe('edp recipes deploy under faults', () => {
  // 15% of requests refused, 5% of answers lost after the work was done: drawn per workspace
  // and request from the seed (see keyed-faults), so that each seed meets the same faults
  // however the three workspaces interleave on a loaded machine.
  for (const seed of [3, 11, 29]) {
    it(`ends with one configured, built recipe per workspace and no account twice (seed ${seed})`, async () => {
      const faulty = await sandbox({ buildSeconds: 0, seed });
      const proxy = await keyedFaults(faulty.url, { seed, failRate: 0.15, resetRate: 0.05 });
      const config = tempDir('edp-faults-');
      try {
        const accounts = [0, 1, 2]
          .map(
            (i) =>
              `remote:${faulty.store.state.accounts.find((a) => a.id === recipeDemo(faulty, 101, 'google_ads').accounts[i])!.account_id}`,
          )
          .join(',');
        const args = [
          'recipes',
          'deploy',
          '-w',
          '101,102,103',
          '--template',
          '4001',
          '--data-source',
          'google_ads',
          '--accounts',
          accounts,
          ...FAST,
          '--json',
        ];
        const r = await cli(proxy, args, { env: { EDP_CONFIG_DIR: config.dir } });
        expect(r.code, r.stderr).toBe(0);
        for (const ws of [101, 102, 103]) {
          const mine = faulty.store.state.recipes.filter((x) => x.workspace_id === ws);
          expect(mine).toHaveLength(1);
          const [recipe] = mine;
          expect(recipe!.state).toBe('ready_to_work');
          expect(recipe!.connections).toHaveLength(1);
          const ids = recipe!.connections[0]!.account_ids;
          expect(ids).toHaveLength(3);
          expect(new Set(ids).size).toBe(ids.length);
        }
      } finally {
        await proxy.close();
        await faulty.close();
        config.remove();
      }
    });
  }
});

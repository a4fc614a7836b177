import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFromExport } from '../../../src/commands/sandbox/shared/from-export.js';
import { checkFixture, type FixtureInput, type Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../../helpers.js';

/**
 * `edp sandbox --from EXPORT.yaml`: a sandbox shaped like the export, so that planning the export
 * against it finds nothing to change. The round trip: a fixture, its sandbox, `edp export`, a
 * sandbox `--from` that file, `edp plan -f` that file.
 */

const dir = tempDir();
afterAll(dir.remove);

const FIXTURE: FixtureInput = {
  agency: { username: 'chief@acme.test', password: 'fixture-secret' },
  roles: [{ title: 'Auditor', description: 'Reads', permissions: ['RECIPE:VIEW', 'EXTRACT:VIEW'] }],
  recipe_templates: [{ title: 'Retail Margins', data_sources: ['google_ads', 'shopify'] }],
  data_sources: [{ name: 'shopify', title: 'Shopify' }],
  workspaces: [
    {
      id: 120,
      title: 'Acme Retail',
      connections: [
        { data_source: 'google_ads', accounts: [{ remote_id: 'g-1' }, { remote_id: 'g-2' }, { remote_id: 'g-3' }] },
        { data_source: 'facebook_ads', accounts: [{ remote_id: 'act_1' }] },
        { data_source: 'shopify', accounts: [{ remote_id: 'shop-1' }] },
      ],
      destinations: [{ destination: 's3', title: 'Lake' }],
      extracts: [{ template: 'Google Ads Campaign performance', account: 'g-1', schedule: 'hourly' }],
      recipes: [
        {
          template: 'Paid Media Performance',
          title: 'Paid media',
          sync_from_date: '2026-01-01',
          sources: [
            { data_source: 'google_ads', accounts: ['g-1', 'g-2'] },
            { data_source: 'facebook_ads', accounts: ['act_1'] },
          ],
        },
        { template: 'Retail Margins', sources: [{ data_source: 'shopify', accounts: ['shop-1'] }] },
      ],
      webhooks: [{ url: 'https://hooks.acme.test/a', events: ['load_completed', 'recipe_activated'] }],
    },
    {
      id: 121,
      title: 'Globex Media',
      connections: [{ data_source: 'google_ads', accounts: [{ remote_id: 'g-1' }, { remote_id: 'g-2' }] }],
      destinations: [{ destination: 's3', title: 'Lake' }],
      recipes: [
        {
          template: 'Paid Media Performance',
          title: 'Paid media',
          sync_from_date: '2026-01-01',
          sources: [{ data_source: 'google_ads', accounts: ['g-1', 'g-2'] }],
        },
      ],
      webhooks: [{ url: 'https://hooks.acme.test/a', events: ['load_completed', 'recipe_activated'] }],
    },
  ],
};
const env = { EDP_USERNAME: 'chief@acme.test', EDP_PASSWORD: 'fixture-secret' };

let source: Sandbox;
const exported = join(dir.dir, 'fleet.yaml');
beforeAll(async () => {
  source = await sandbox({ fixture: await checkFixture(FIXTURE, 'fixture') });
  const r = await cli(source, ['export', '-w', '120,121', '--output', exported], { env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => source.close());

/** Runs `edp sandbox ARGS` until it listens, then `body` with its URL, then stops it. */
async function running(args: string[], body: (url: string) => Promise<void>) {
  const stop = new AbortController();
  let done: Promise<void> | undefined;
  const r = await cli(undefined, ['sandbox', '--port', '0', ...args], {
    signal: stop.signal,
    onStdout: (out) => {
      const url = /Sandbox listening on (\S+)/.exec(out)?.[1];
      if (url && !done) done = body(url).finally(() => stop.abort());
    },
  });
  await done;
  return r;
}

describe('edp sandbox --from', () => {
  it('makes a sandbox against which the export plans no change', async () => {
    let plan: Awaited<ReturnType<typeof cli>> | undefined;
    let workspaces: unknown;
    const r = await running(['--from', exported], async (url) => {
      plan = await cli({ url }, ['plan', '-f', exported, '--detailed-exitcode']);
      workspaces = (await cli({ url }, ['workspaces', 'list', '--json'])).json();
    });
    expect(r.code, r.stderr).toBe(0);
    expect(plan?.stdout).toContain('No changes');
    expect(plan?.code, `${plan?.stdout}${plan?.stderr}`).toBe(0);
    expect((workspaces as Array<{ id: number; title: string }>).map((w) => [w.id, w.title])).toEqual([
      [120, 'Acme Retail'],
      [121, 'Globex Media'],
    ]);
  });

  it('is refused for an export that is not a fleet file, at its line and column (exit 2)', async () => {
    const bad = join(dir.dir, 'bad.yaml');
    writeFileSync(bad, `${readFileSync(exported, 'utf8')}\nrecipez: []\n`);
    const r = await cli(undefined, ['sandbox', '--port', '0', '--from', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--from ${bad} is not a valid fleet file`);
    expect(r.stderr).toMatch(/recipez: unknown key/);
  });
});

describe('the fixture of an export', () => {
  it('gives an export that names no workspace one, and declares the templates and data sources it names', () => {
    const f = fixtureFromExport({
      workspaces: 'all',
      recipes: [
        { template: 'Custom Mix', sources: [{ dataSource: 'tiktok_ads', accounts: ['remote:t-1', 'all-active'] }] },
      ],
      webhooks: [],
      roles: [],
    });
    expect(f.workspaces).toEqual([
      {
        id: 101,
        title: 'Workspace 101',
        connections: [{ data_source: 'tiktok_ads', accounts: [{ remote_id: 't-1' }] }],
        recipes: [
          { template: 'Custom Mix', sources: [{ data_source: 'tiktok_ads', accounts: ['remote:t-1', 'all-active'] }] },
        ],
        destinations: [{ destination: 's3', title: 'S3 warehouse (Workspace 101)' }],
      },
    ]);
    expect(f.recipe_templates).toEqual([{ title: 'Custom Mix', data_sources: ['tiktok_ads'] }]);
    expect(f.data_sources).toEqual([{ name: 'tiktok_ads' }]);
  });

  it('gives destinations their values from the environment as themselves, and enables the accounts named', () => {
    const f = fixtureFromExport({
      workspaces: ['130'],
      recipes: [],
      webhooks: [],
      roles: [],
      kinds: {
        destinations: [
          {
            destination: 's3',
            title: 'Lake',
            params: { bucket: 'b', aws_secret_access_key: { kind: 'env', names: ['LAKE'], value: 's3cr3t' } },
          },
        ],
        accounts: [{ dataSource: 'google_ads', enabled: ['remote:g-1'] }],
        extracts: [{ template: 'Google Ads Campaign performance', dataSource: 'google_ads', accounts: ['remote:g-2'] }],
      },
    });
    expect(f.workspaces[0]).toMatchObject({
      id: 130,
      destinations: [{ destination: 's3', title: 'Lake', params: { bucket: 'b', aws_secret_access_key: 's3cr3t' } }],
      connections: [
        {
          data_source: 'google_ads',
          accounts: [
            { remote_id: 'g-2', enabled: false },
            { remote_id: 'g-1', enabled: true },
          ],
        },
      ],
      extracts: [{ template: 'Google Ads Campaign performance', account: 'g-2' }],
    });
  });

  it("takes the clients' titles and ids, and their groups for group: selectors", () => {
    const f = fixtureFromExport({
      workspaces: ['group:retail'],
      clients: [
        { title: 'Acme Retail', id: '140', groups: ['retail'] },
        { title: 'Globex', groups: [] },
      ],
      recipes: [],
      webhooks: [{ url: 'https://h.test/x', events: ['load_completed'] }],
      roles: [],
    });
    expect(f.workspaces.map((w) => [w.id, w.title, w.webhooks?.length ?? 0])).toEqual([
      [140, 'Acme Retail', 1],
      [undefined, 'Globex', 0],
    ]);
  });
});

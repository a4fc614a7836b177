import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { requireBuild } from './helpers.js';
import { limitConcurrentTests } from './concurrency.js';
import { operatorProfile } from './operator-profile.js';

// The built command line (its bundle, run in this process: what it sends, reads and prints is the
// subject): data sources, connections, accounts, links and the extraction commands, with every
// --file-style flag of the area read as JSON and as YAML. The tests run a few at a time, each with
// a config folder of its own (a copy of one logged-in profile holding the workspace's token), in
// the sandbox of this file: none of them changes what another one checks.

limitConcurrentTests();

const dir = tempDir('edp-e2e-sources-');
let sb: Sandbox;
let profile: Awaited<ReturnType<typeof operatorProfile>>;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
  profile = await operatorProfile(sb.url, dir.dir, [101]);
});
afterAll(async () => {
  await sb.close();
  dir.remove();
});
/** Runs the built tool as the operator in workspace 101, with a config folder of the calling test's own. */
function operator() {
  const config = profile.fresh();
  return (argv: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) =>
    runBuiltInProcess(['-w', '101', ...argv], { env: profile.env(config, opts.env), stdin: opts.stdin });
}
function file(name: string, text: string): string {
  const path = join(dir.dir, name);
  writeFileSync(path, text);
  return path;
}

describe.concurrent('edp, built: sources', () => {
  it('datasources list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['datasources', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((d: { name: string }) => d.name)).toContain('google_ads');
  });

  it('connections list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['connections', 'list', '--data-source', 'google_ads', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([expect.objectContaining({ id: 1001 })]);
  });

  it('accounts: disable one, then list', async ({ expect }) => {
    const edp = operator();
    const off = await edp(['accounts', 'disable', '--connection', '1001', '20004']);
    expect(off.code).toBe(0);
    const list = await edp(['accounts', 'list', '--connection', '1001', '--json']);
    expect(list.json().find((a: { id: number }) => a.id === 20004)).toMatchObject({
      enabled_for_embedded_extraction: false,
    });
  });

  it('links: create one, then list', async ({ expect }) => {
    const edp = operator();
    const created = await edp([
      'links',
      'create',
      '--data-source',
      'google_ads',
      '--to',
      'owner@client.example',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(created.json()).toEqual([expect.objectContaining({ email: 'owner@client.example', status: 'not_used' })]);
    const list = await edp(['links', 'list', '--data-source', 'google_ads', '--json']);
    expect(list.json().map((l: { email: string }) => l.email)).toContain('owner@client.example');
  });
});

describe.concurrent('edp, built: extraction', () => {
  it('extract-templates: list, and validate with --settings-file as YAML from stdin', async ({ expect }) => {
    const edp = operator();
    const [list, bad] = await Promise.all([
      edp(['extract-templates', 'list', '--data-source', 'google_ads', '--json']),
      edp(['extract-templates', 'validate', '301', '--accounts', '20001', '--settings-file', '-'], {
        stdin: 'colour: red\n',
      }),
    ]);
    expect(list.json().map((t: { id: number }) => t.id)).toEqual(expect.arrayContaining([301, 302]));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('colour');
  });

  it.for([
    [
      'JSON',
      'settings.json',
      JSON.stringify({
        fields: ['date', 'campaign_id', 'campaign_name', 'clicks'],
        sync_historical_data: '2024-02-01',
      }),
    ],
    ['YAML', 'settings.yaml', 'fields: [date, campaign_id, campaign_name, clicks]\nsync_historical_data: 2024-02-01\n'],
  ] as const)('extracts create --settings-file as %s', async ([, name, text], { expect }) => {
    const edp = operator();
    const r = await edp([
      'extracts',
      'create',
      '--template',
      '301',
      '--account',
      '20002',
      '--settings-file',
      file(name, text),
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const extract = r.json();
    expect(extract.sync_historical_data).toBe('2024-02-01');
    expect(extract.fields.map((f: { name: string }) => f.name)).toEqual([
      'date',
      'campaign_id',
      'campaign_name',
      'clicks',
    ]);
  });

  it('extracts list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['extracts', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((e: { id: number }) => e.id)).toEqual(expect.arrayContaining([40001, 40002, 40003]));
  });

  it.for([
    [
      'JSON',
      'lake.json',
      JSON.stringify({ title: 'Lake from JSON', connection_params: { bucket: 'json-lake', file_format: 'parquet' } }),
    ],
    ['YAML', 'lake.yaml', 'title: Lake from YAML\nconnection_params:\n  bucket: yaml-lake\n  file_format: parquet\n'],
  ] as const)('destinations connections create --file as %s', async ([kind, name, text], { expect }) => {
    const edp = operator();
    const r = await edp(
      ['destinations', 'connections', 'create', '--destination', 's3', '--file', file(name, text), '--json'],
      {
        env: { EDP_AWS_ACCESS_KEY_ID: 'AKIAE2E', EDP_AWS_SECRET_ACCESS_KEY: 'e2e-secret' },
      },
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      title: `Lake from ${kind}`,
      connection_params: { bucket: `${kind.toLowerCase()}-lake`, file_format: 'parquet' },
    });
  });

  it('destinations list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['destinations', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((d: { name: string }) => d.name)).toContain('s3');
  });

  it('tables get', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['tables', 'get', '5001', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ id: 5001, extract_template_id: 301 });
  });

  it('loads list', async ({ expect }) => {
    const edp = operator();
    const r = await edp(['loads', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: 8001, data_table_id: 5001 })]));
  });
});

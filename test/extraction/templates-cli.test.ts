import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../helpers.js';
import { demo } from '../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extract-templates', () => {
  it('lists a data source\'s templates', async () => {
    const r = await edp('extract-templates', 'list', '--data-source', 'google_ads', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.title)).toEqual(['Google Ads Campaign performance', 'Google Ads Custom report']);
  });

  it('maps an unknown data source (400) to exit 2 with the service\'s message', async () => {
    const r = await edp('extract-templates', 'list', '--data-source', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/400: Unknown data source "nope"/);
  });

  it('gets a template by id alone (the compact form names its data source)', async () => {
    const t = demo(sb).template('facebook_ads', true);
    const r = await edp('extract-templates', 'get', String(t.id), '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ id: t.id, sql_name: t.sql_name, is_wide_template: true });
    expect(r.json().fields.length).toBe(t.fields.length);
    const compact = await edp('extract-templates', 'get', String(t.id), '--compact', '--json');
    expect(compact.json()).toEqual({ id: t.id, datasource_name: 'facebook_ads', is_wide_template: true });
    const missing = await edp('extract-templates', 'get', '999');
    expect(missing.code).toBe(5);
  });

  it('creates a wide template with its connection and fields', async () => {
    const d = demo(sb);
    const r = await edp('extract-templates', 'create', '--data-source', 'google_ads', '--parent', String(d.template('google_ads', true).id),
      '--title', 'Ads by page', '--connection', String(d.connection('google_ads').id), '--fields', 'date,landing_page,spend', '--dynamic-fields', 'custom_conversion_lead', '--json');
    expect(r.code).toBe(0);
    expect(r.json().fields.map((f: any) => [f.name, f.format, f.is_dynamic])).toEqual([
      ['date', 'iso_8601_date', false], ['landing_page', 'url', false], ['spend', 'currency', false], ['custom_conversion_lead', 'float', true],
    ]);
  });

  it('refuses a wide parent without --connection or --fields before creating anything (exit 2)', async () => {
    const d = demo(sb);
    const before = sb.store.state.extract_templates.length;
    const parent = String(d.template('google_ads', true).id);
    const noConnection = await edp('extract-templates', 'create', '--data-source', 'google_ads', '--parent', parent, '--title', 'x', '--fields', 'date,spend');
    expect(noConnection.code).toBe(2);
    expect(noConnection.stderr).toContain('--connection');
    const noFields = await edp('extract-templates', 'create', '--data-source', 'google_ads', '--parent', parent, '--title', 'x', '--connection', String(d.connection('google_ads').id));
    expect(noFields.code).toBe(2);
    expect(noFields.stderr).toContain('--fields');
    const wrongSource = await edp('extract-templates', 'create', '--data-source', 'linkedin_ads', '--parent', parent, '--title', 'x');
    expect(wrongSource.code).toBe(2);
    expect(sb.store.state.extract_templates.length).toBe(before);
  });

  it('shows the service\'s 400 for an unknown field (exit 2)', async () => {
    const d = demo(sb);
    const r = await edp('extract-templates', 'create', '--data-source', 'google_ads', '--parent', String(d.template('google_ads', true).id),
      '--title', 'x', '--connection', String(d.connection('google_ads').id), '--fields', 'date,nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fields: unknown fields');
  });

  it('exits 4 when the user lacks EXTRACT.CREATE (a Viewer in that workspace)', async () => {
    const cfg = tempDir();
    try {
      const r = await cli(sb, ['extract-templates', 'create', '--data-source', 'google_ads', '--parent', String(demo(sb).template('google_ads', false).id), '--title', 'x', '-w', '103'], {
        env: { EDP_USERNAME: 'editor@sandbox.local', EDP_PASSWORD: 'sandbox', EDP_CONFIG_DIR: cfg.dir },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('EXTRACT.CREATE');
    } finally {
      cfg.remove();
    }
  });

  it('validates accounts with settings', async () => {
    const d = demo(sb);
    const [a, b] = d.accounts('google_ads');
    const r = await edp('extract-templates', 'validate', String(d.template('google_ads', true).id), '--accounts', `${a!.id},${b!.id}`,
      '--fields', 'date,spend', '--additional-params', '{"attribution":"7d"}', '--sync-historical-data', '2024-01-01');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`valid for accounts ${a!.id}, ${b!.id}`);
  });

  it('maps accounts of several connections (400) to exit 2', async () => {
    const d = demo(sb);
    const r = await edp('extract-templates', 'validate', String(d.template('google_ads', true).id), '--accounts', `${d.accounts('google_ads')[0]!.id},${d.accounts('facebook_ads')[0]!.id}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
  });

  it.each([
    [['--accounts', 'abc'], '--accounts'],
    [['--accounts', '1', '--additional-params', '{nope'], '--additional-params'],
    [['--accounts', '1', '--additional-params', '[1]'], '--additional-params'],
    [['--accounts', '1', '--sync-historical-data', '2024-02-30'], '--sync-historical-data'],
    [['--accounts', '1', '--fields', 'a,a'], '--fields'],
  ])('refuses bad validate input %j locally (exit 2)', async (args, flag) => {
    const r = await edp('extract-templates', 'validate', '301', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
  });

  it('reads settings from a file', async () => {
    const d = demo(sb);
    const withFile = await cli(sb, ['extract-templates', 'validate', String(d.template('google_ads', true).id), '--accounts', String(d.accounts('google_ads')[0]!.id), '--settings-file', '-', '--json', '-w', '101'], {
      stdin: 'fields: [date, ad_name, spend]\ndynamic_fields: [custom_label]\n',
    });
    expect(withFile.code).toBe(0);
    expect(withFile.json().template_settings.dynamic_fields).toEqual(['custom_label']);
    const bad = await cli(sb, ['extract-templates', 'validate', '301', '--accounts', '1', '--settings-file', '-', '-w', '101'], { stdin: 'colour: red\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown setting "colour"');
  });

  it('previews rows as a table on a terminal and as JSON', async () => {
    const d = demo(sb);
    const args = ['extract-templates', 'preview', String(d.template('google_ads', false).id), '--accounts', String(d.accounts('google_ads')[0]!.id), '-w', '101'];
    const json = await cli(sb, [...args, '--json']);
    expect(json.json().rows).toHaveLength(5);
    const table = await cli(sb, args, { tty: true });
    expect(table.stdout).toContain('campaign_name');
  });

  it('lists custom setting options grouped by account', async () => {
    const d = demo(sb);
    const remote = d.accounts('google_ads')[0]!.account_id;
    const r = await edp('extract-templates', 'setting-options', '--data-source', 'google_ads', '--connection', String(d.connection('google_ads').id), '--accounts', remote, '--search', 'lead', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([{ account_id: remote, account_name: expect.any(String), options: [{ value: `${remote}:lead_form`, title: 'Lead form' }] }]);
    const piped = await edp('extract-templates', 'setting-options', '--data-source', 'google_ads', '--connection', String(d.connection('google_ads').id), '--accounts', remote);
    expect(piped.stdout.split('\n')[0]).toContain(`${remote}:purchase`);
  });
});

import { describe, expect, it } from 'vitest';
import { cli, tempDir, useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extract-templates create', () => {
  it('creates a wide template with its connection and fields', async () => {
    const d = demo(t.sb);
    const r = await t.edp(
      'extract-templates',
      'create',
      '--data-source',
      'google_ads',
      '--parent',
      String(d.template('google_ads', true).id),
      '--title',
      'Ads by page',
      '--connection',
      String(d.connection('google_ads').id),
      '--fields',
      'date,landing_page,spend',
      '--dynamic-fields',
      'custom_conversion_lead',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.json().fields.map((f: any) => [f.name, f.format, f.is_dynamic])).toEqual([
      ['date', 'iso_8601_date', false],
      ['landing_page', 'url', false],
      ['spend', 'currency', false],
      ['custom_conversion_lead', 'float', true],
    ]);
  });

  it('refuses a wide parent without --connection or --fields before creating anything (exit 2)', async () => {
    const d = demo(t.sb);
    const before = t.sb.store.state.extract_templates.length;
    const parent = String(d.template('google_ads', true).id);
    const noConnection = await t.edp(
      'extract-templates',
      'create',
      '--data-source',
      'google_ads',
      '--parent',
      parent,
      '--title',
      'x',
      '--fields',
      'date,spend',
    );
    expect(noConnection.code).toBe(2);
    expect(noConnection.stderr).toContain('--connection');
    const noFields = await t.edp(
      'extract-templates',
      'create',
      '--data-source',
      'google_ads',
      '--parent',
      parent,
      '--title',
      'x',
      '--connection',
      String(d.connection('google_ads').id),
    );
    expect(noFields.code).toBe(2);
    expect(noFields.stderr).toContain('--fields');
    const wrongSource = await t.edp(
      'extract-templates',
      'create',
      '--data-source',
      'linkedin_ads',
      '--parent',
      parent,
      '--title',
      'x',
    );
    expect(wrongSource.code).toBe(2);
    expect(t.sb.store.state.extract_templates.length).toBe(before);
  });

  it("shows the service's 400 for an unknown field (exit 2)", async () => {
    const d = demo(t.sb);
    const r = await t.edp(
      'extract-templates',
      'create',
      '--data-source',
      'google_ads',
      '--parent',
      String(d.template('google_ads', true).id),
      '--title',
      'x',
      '--connection',
      String(d.connection('google_ads').id),
      '--fields',
      'date,nope',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fields: unknown fields');
  });

  it('exits 4 when the user lacks EXTRACT.CREATE (a Viewer in that workspace)', async () => {
    const cfg = tempDir();
    try {
      const r = await cli(
        t.sb,
        [
          'extract-templates',
          'create',
          '--data-source',
          'google_ads',
          '--parent',
          String(demo(t.sb).template('google_ads', false).id),
          '--title',
          'x',
          '-w',
          '103',
        ],
        {
          env: { EDP_USERNAME: 'editor@sandbox.local', EDP_PASSWORD: 'sandbox', EDP_CONFIG_DIR: cfg.dir },
        },
      );
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('EXTRACT.CREATE');
    } finally {
      cfg.remove();
    }
  });
});

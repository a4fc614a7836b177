import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extract-templates get', () => {
  it('gets a template by id alone (the compact form names its data source)', async () => {
    const template = demo(t.sb).template('facebook_ads', true);
    const r = await t.edp('extract-templates', 'get', String(template.id), '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ id: template.id, sql_name: template.sql_name, is_wide_template: true });
    expect(r.json().fields.length).toBe(template.fields.length);
    const compact = await t.edp('extract-templates', 'get', String(template.id), '--compact', '--json');
    expect(compact.json()).toEqual({ id: template.id, datasource_name: 'facebook_ads', is_wide_template: true });
    const missing = await t.edp('extract-templates', 'get', '999');
    expect(missing.code).toBe(5);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extract-templates get', () => {
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
});

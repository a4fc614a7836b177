import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';
import { demo } from '../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);
const selection = () => demo(sb).table.selected_fields;

describe('edp tables', () => {
  it('lists the workspace\'s tables', async () => {
    const r = await edp('tables', 'list');
    expect(r.code).toBe(0);
    const t = demo(sb).table;
    expect(r.stdout).toContain(`${t.id}\tGoogle Ads campaigns\t${t.sql_name}\tgoogle_ads`);
  });

  it('gets a table with sql_name and the system fields; 404 is exit 5', async () => {
    const t = demo(sb).table;
    const r = await edp('tables', 'get', String(t.id), '--json');
    expect(r.json().sql_name).toBe(t.sql_name);
    expect(r.json().fields.filter((f: any) => f.is_system).map((f: any) => f.name)).toEqual(['account_id', 'account_name', '__insert_date']);
    const human = await cli(sb, ['tables', 'get', String(t.id), '-w', '101'], { tty: true });
    expect(human.stdout).toContain('__insert_date');
    expect((await edp('tables', 'get', String(demo(sb, 102).table.id))).code).toBe(5);
  });

  it('shows the fields with their selection', async () => {
    const r = await edp('tables', 'fields', String(demo(sb).table.id), '--json');
    expect(r.json().find((f: any) => f.name === 'spend')).toMatchObject({ format: 'currency', is_selected: true });
  });

  it('--remove and --add compute the full list for the PUT', async () => {
    const id = String(demo(sb).table.id);
    const removed = await edp('tables', 'fields', id, '--remove', 'ctr,conversions', '--json');
    expect(removed.code).toBe(0);
    expect(removed.json().selected_fields).toEqual(['date', 'campaign_id', 'campaign_name', 'impressions', 'clicks', 'spend']);
    const added = await edp('tables', 'fields', id, '--add', 'ctr', '--json');
    expect(added.json().selected_fields).toEqual(['date', 'campaign_id', 'campaign_name', 'impressions', 'clicks', 'spend', 'ctr']);
  });

  it('--set names the whole selection; unknown names are reported and left out', async () => {
    const id = String(demo(sb).table.id);
    const r = await edp('tables', 'fields', id, '--set', 'date,campaign_id,campaign_name,spend,account_id,no_such_field');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no field no_such_field; ignored');
    expect(selection()).toEqual(['date', 'campaign_id', 'campaign_name', 'spend']);
  });

  it.each([
    [['--remove', 'campaign_id'], 'dimension fields cannot be deselected: campaign_id'],
    [['--set', 'date,spend'], 'dimension fields cannot be deselected: campaign_id, campaign_name'],
    [['--remove', 'account_id'], 'system field'],
    [['--set', 'date', '--add', 'spend'], '--set'],
    [['--add', 'ctr', '--remove', 'ctr'], 'both name ctr'],
  ])('refuses %j locally and sends nothing (exit 2)', async (args, message) => {
    const before = selection();
    const r = await edp('tables', 'fields', String(demo(sb).table.id), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(selection()).toEqual(before);
  });
});

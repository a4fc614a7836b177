import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101'], { each: true });
const selection = () => demo(t.sb).table.selected_fields;

describe('edp tables fields', () => {
  it('shows the fields with their selection', async () => {
    const r = await t.edp('tables', 'fields', String(demo(t.sb).table.id), '--json');
    expect(r.json().find((f: any) => f.name === 'spend')).toMatchObject({ format: 'currency', is_selected: true });
  });

  it('--remove and --add compute the full list for the PUT', async () => {
    const id = String(demo(t.sb).table.id);
    const removed = await t.edp('tables', 'fields', id, '--remove', 'ctr,conversions', '--json');
    expect(removed.code).toBe(0);
    expect(removed.json().selected_fields).toEqual([
      'date',
      'campaign_id',
      'campaign_name',
      'impressions',
      'clicks',
      'spend',
    ]);
    const added = await t.edp('tables', 'fields', id, '--add', 'ctr', '--json');
    expect(added.json().selected_fields).toEqual([
      'date',
      'campaign_id',
      'campaign_name',
      'impressions',
      'clicks',
      'spend',
      'ctr',
    ]);
  });

  it('--set names the whole selection; unknown names are reported and left out', async () => {
    const id = String(demo(t.sb).table.id);
    const r = await t.edp(
      'tables',
      'fields',
      id,
      '--set',
      'date,campaign_id,campaign_name,spend,account_id,no_such_field',
    );
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
    const r = await t.edp('tables', 'fields', String(demo(t.sb).table.id), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(selection()).toEqual(before);
  });
});

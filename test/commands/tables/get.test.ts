import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp tables get', () => {
  it('gets a table with sql_name and the system fields; 404 is exit 5', async () => {
    const table = demo(t.sb).table;
    const r = await t.edp('tables', 'get', String(table.id), '--json');
    expect(r.json().sql_name).toBe(table.sql_name);
    expect(
      r
        .json()
        .fields.filter((f: any) => f.is_system)
        .map((f: any) => f.name),
    ).toEqual(['account_id', 'account_name', '__insert_date']);
    const human = await cli(t.sb, ['tables', 'get', String(table.id), '-w', '101'], { tty: true });
    expect(human.stdout).toContain('__insert_date');
    expect((await t.edp('tables', 'get', String(demo(t.sb, 102).table.id))).code).toBe(5);
  });
});

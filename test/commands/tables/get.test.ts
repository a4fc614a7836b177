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

describe('edp tables get', () => {
  it('gets a table with sql_name and the system fields; 404 is exit 5', async () => {
    const t = demo(sb).table;
    const r = await edp('tables', 'get', String(t.id), '--json');
    expect(r.json().sql_name).toBe(t.sql_name);
    expect(
      r
        .json()
        .fields.filter((f: any) => f.is_system)
        .map((f: any) => f.name),
    ).toEqual(['account_id', 'account_name', '__insert_date']);
    const human = await cli(sb, ['tables', 'get', String(t.id), '-w', '101'], { tty: true });
    expect(human.stdout).toContain('__insert_date');
    expect((await edp('tables', 'get', String(demo(sb, 102).table.id))).code).toBe(5);
  });
});

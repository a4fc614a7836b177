import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extracts get', () => {
  it('gets an extract; 404 is exit 5', async () => {
    const id = sb.store.state.extracts.find((e) => e.workspace_id === 101)!.id;
    const r = await edp('extracts', 'get', String(id), '--json');
    expect(r.json()).toMatchObject({ id, template: { is_wide_template: false } });
    expect(r.json()).toHaveProperty('sync_historical_data');
    expect((await edp('extracts', 'get', '999999')).code).toBe(5);
  });
});

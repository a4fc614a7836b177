import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts get', () => {
  it('gets an extract; 404 is exit 5', async () => {
    const id = t.sb.store.state.extracts.find((e) => e.workspace_id === 101)!.id;
    const r = await t.edp('extracts', 'get', String(id), '--json');
    expect(r.json()).toMatchObject({ id, template: { is_wide_template: false } });
    expect(r.json()).toHaveProperty('sync_historical_data');
    expect((await t.edp('extracts', 'get', '999999')).code).toBe(5);
  });
});

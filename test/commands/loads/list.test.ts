import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp loads list and get', () => {
  it('lists and gets loads; 404 is exit 5', async () => {
    const list = await t.edp('loads', 'list', '--json');
    expect(list.json()).toHaveLength(1);
    const id = list.json()[0].id;
    const get = await t.edp('loads', 'get', String(id), '--json');
    expect(get.json()).toMatchObject({ id, status: 'active', last_run: null });
    expect((await t.edp('loads', 'get', '999999')).code).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp loads update', () => {
  it('updates only the named parts (the rest is read and sent back whole)', async () => {
    const id = await newLoad(t, '--title', 'Keep me');
    const r = await t.edp('loads', 'update', String(id), '--schedule', 'hourly', '--json');
    expect(r.json()).toMatchObject({ title: 'Keep me', schedule: 'hourly' });
    expect((await t.edp('loads', 'update', String(id))).code).toBe(2);
    expect((await t.edp('loads', 'update', String(id), '--schedule', 'sometimes')).code).toBe(2);
  });
});

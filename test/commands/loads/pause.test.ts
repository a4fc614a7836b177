import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp loads pause and unpause', () => {
  it('pauses (a run is then a conflict: exit 6) and unpauses', async () => {
    const id = await newLoad(t);
    expect((await t.edp('loads', 'pause', String(id), '--json')).json().status).toBe('paused');
    const r = await t.edp('loads', 'run', String(id));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('paused');
    expect((await t.edp('loads', 'unpause', String(id), '--json')).json().status).toBe('active');
  });
});

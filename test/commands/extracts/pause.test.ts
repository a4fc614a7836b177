import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { created } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts pause and unpause', () => {
  it('pauses (then run is a conflict: exit 6) and unpauses', async () => {
    const e = await created(t);
    const paused = await t.edp('extracts', 'pause', String(e.id), '--json');
    expect(paused.json()).toMatchObject({ is_paused: true, pause_reason: 'manual' });
    const run = await t.edp('extracts', 'run', String(e.id));
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('409');
    const unpaused = await t.edp('extracts', 'unpause', String(e.id));
    expect(unpaused.code).toBe(0);
    expect(unpaused.stderr).toContain('unpaused');
  });
});

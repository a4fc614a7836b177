import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);
const exists = (id: number) => t.sb.store.state.loads.some((l) => l.id === id);

describe('edp loads delete', () => {
  it('delete needs --yes without a terminal, and deletes with it', async () => {
    const id = await newLoad(t);
    const refused = await t.edp('loads', 'delete', String(id));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(exists(id)).toBe(true);
    const r = await t.edp('loads', 'delete', String(id), '--yes');
    expect(r.code).toBe(0);
    expect(exists(id)).toBe(false);
    expect((await t.edp('loads', 'delete', String(id), '--yes')).code).toBe(5);
  });

  it('delete asks on a terminal', async () => {
    const id = await newLoad(t);
    const declined = await cli(t.sb, ['loads', 'delete', String(id), '-w', '101'], { tty: true, stdin: 'n\n' });
    expect(declined.code).toBe(11);
    expect(exists(id)).toBe(true);
    const confirmed = await cli(t.sb, ['loads', 'delete', String(id), '-w', '101'], { tty: true, stdin: 'y\n' });
    expect(confirmed.code).toBe(0);
    expect(exists(id)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';

const t = useSandbox();

describe('edp roles list', () => {
  it('lists roles with kind and user count, system roles marked', async () => {
    const r = await t.edp('roles', 'list');
    expect(r.code).toBe(0);
    const rows = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    expect(rows.find((x) => x[1] === 'Viewer')!.slice(2, 4)).toEqual(['system', '2']);
    expect(rows.find((x) => x[1] === 'Media Buyer')!.slice(2, 4)).toEqual(['custom', '1']);
    expect((await t.edp('roles', 'list', '--json', '--limit', '2')).json()).toHaveLength(2);
  });

  it('maps a non-chief user to exit 4 and wrong credentials to exit 3', async () => {
    const analyst = await cli(t.sb, ['roles', 'list'], {
      env: { EDP_USERNAME: 'analyst@sandbox.local', EDP_PASSWORD: 'sandbox' },
    });
    expect(analyst.code).toBe(4);
    expect(analyst.stderr).toContain('403');
    expect(analyst.stderr).toContain('agency chief');
    const wrong = await cli(t.sb, ['roles', 'list'], { env: { EDP_PASSWORD: 'wrong' } });
    expect(wrong.code).toBe(3);
  });
});

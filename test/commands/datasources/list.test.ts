import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ scale: 2 });
});
afterAll(() => sb.close());

const ws101 = { env: { EDP_WORKSPACE: '101' } };
const edp = (argv: string[], opts: Parameters<typeof cli>[2] = ws101) => cli(sb, argv, opts);

describe('edp datasources list', () => {
  it('lists name, title and category', async () => {
    const r = await edp(['datasources', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((d: any) => d.name)).toEqual([
      'facebook_ads',
      'google_ads',
      'google_analytics_4',
      'linkedin_ads',
    ]);
    const piped = await edp(['datasources', 'list']);
    expect(piped.stdout.split('\n')[0]).toBe('facebook_ads\tFacebook Ads\tAdvertising');
  });

  it('needs a workspace (exit 2, names -w)', async () => {
    const r = await edp(['datasources', 'list'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-w/--workspace');
  });

  it('shows a table on a terminal', async () => {
    const r = await edp(['datasources', 'list', '-w', '101'], { tty: true });
    expect(r.stdout).toMatch(/NAME.*TITLE.*CATEGORY/);
    expect(r.stdout).toContain('Web Analytics');
  });
});

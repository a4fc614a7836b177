import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, parse, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces list', () => {
  it('parses --limit as its own option and the global flags apart', async () => {
    const r = await parse(['workspaces', 'list', '--limit', '5', '-w', '101', '--json']);
    expect(r.code).toBe(0);
    expect(r.parsed).toMatchObject({
      command: 'workspaces list',
      opts: { limit: '5', args: [] },
      globals: { workspace: '101', json: true },
    });
  });

  it('refuses an option it does not declare (exit 2)', async () => {
    const r = await parse(['workspaces', 'list', '--title', 'x']);
    expect(r.code).toBe(2);
    expect(r.parsed).toBeUndefined();
    expect(r.stderr).toContain("unknown option '--title'");
  });

  it('lists every workspace as JSON', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((w: any) => w.title)).toEqual(['Acme Retail', 'Globex Media', 'Initech Apps']);
  });

  it('prints tab-separated rows when piped', async () => {
    const r = await cli(sb, ['workspaces', 'list']);
    expect(r.stdout.split('\n')[0]).toBe('101\tAcme Retail');
  });
});

describe('faults and paging', () => {
  it('reads survive a service that fails a third of requests with 503', async () => {
    const flaky = await sandbox({ failRate: 0.34, retryAfter: 0, seed: 3 });
    for (let i = 0; i < 5; i++) {
      const r = await cli(flaky, ['workspaces', 'list', '--json']);
      expect(r.code).toBe(0);
      expect(r.json()).toHaveLength(3);
    }
    await flaky.close();
  });

  it('lists every item across many pages, in id order', async () => {
    const big = await sandbox();
    const basic = { basic: true as const };
    for (let i = 0; i < 347; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 347 - i) }, (_, k) =>
          http(big, 'POST', '/api/v3/workspaces', { ...basic, body: { title: `W${i + k}` } }),
        ),
      );
    }
    const r = await cli(big, ['workspaces', 'list', '--json', '--verbose']);
    const ids = r.json().map((w: any) => w.id);
    expect(ids).toHaveLength(350);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(r.stderr.match(/GET \/api\/v3\/workspaces\?page=/g)).toHaveLength(4);
    const limited = await cli(big, ['workspaces', 'list', '--ndjson', '--limit', '120']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(120);
    expect((await cli(big, ['workspaces', 'list', '--limit', '0'])).code).toBe(2);
    const sequential = await cli(big, ['workspaces', 'list', '--json'], { env: { EDP_PAGE_CONCURRENCY: '1' } });
    expect(sequential.json()).toHaveLength(350);
    const bad = await cli(big, ['workspaces', 'list'], { env: { EDP_PAGE_CONCURRENCY: 'lots' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('EDP_PAGE_CONCURRENCY');
    await big.close();
  });
});

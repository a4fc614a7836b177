import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp agency-recipes, workspaces enable-recipe and dashboards', () => {
  it('lists agency recipes', async () => {
    const r = await cli(sb, ['agency-recipes', 'list', '--json']);
    expect(r.json().map((x: any) => x.id)).toEqual([501, 502, 503]);
  });

  it('enables a recipe, after which its DATA dashboards show in the workspace', async () => {
    expect((await cli(sb, ['workspaces', 'dashboards', '102', '--json'])).json()).toEqual([]);
    const r = await cli(sb, ['workspaces', 'enable-recipe', '102', '502']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Enabled recipe 502 in workspace 102');
    const d = await cli(sb, ['workspaces', 'dashboards', '102']);
    expect(d.stdout).toBe('9003\tFunnel\tDATA\n');
  });

  it('exit 5 for an unknown recipe, exit 4 when the recipe pipeline is off, exit 2 for a bad id', async () => {
    const unknown = await cli(sb, ['workspaces', 'enable-recipe', '102', '999']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('404');
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: false } });
    const off = await cli(sb, ['workspaces', 'enable-recipe', '102', '501']);
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: true } });
    expect(off.code).toBe(4);
    expect(off.stderr).toMatch(/403: The recipe pipeline is disabled/);
    expect((await cli(sb, ['workspaces', 'enable-recipe', '102', 'x'])).code).toBe(2);
  });
});

describe('edp iframe-url', () => {
  it('prints the URL with the caller-added parameters', async () => {
    const r = await cli(sb, ['-w', '101', 'iframe-url', '--type', 'datasource', '--name', 'google_ads', '--show-account-selection', '--use-default-auth']);
    expect(r.code).toBe(0);
    const u = new URL(r.stdout.trim());
    expect(u.pathname).toBe('/api/v3/iframe/');
    expect(u.searchParams.get('type')).toBe('datasource');
    expect(u.searchParams.get('name')).toBe('google_ads');
    expect(u.searchParams.get('show_account_selection')).toBe('True');
    expect(u.searchParams.get('use_default_auth')).toBe('True');
  });

  it('sends the show_* query options', async () => {
    const r = await cli(sb, ['-w', '101', 'iframe-url', '--no-show-accounts', '--show-accounts-only-on-auth', '--show-connectors-list', '--json']);
    const code = new URL(r.json().url).searchParams.get('code')!;
    expect(sb.store.state.iframe_sessions[code]!.options).toEqual({ show_connectors_list: true, show_accounts: false, show_accounts_only_on_auth: true });
  });

  it('refuses bad input before sending (exit 2)', async () => {
    const before = Object.keys(sb.store.state.iframe_sessions).length;
    for (const argv of [
      ['iframe-url', '--type', 'warehouse'],
      ['iframe-url', '--show-accounts-only-on-auth'],
      ['iframe-url', '--name', ''],
    ]) {
      const r = await cli(sb, ['-w', '101', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
    }
    expect((await cli(sb, ['iframe-url'])).stderr).toContain('-w/--workspace');
    expect(Object.keys(sb.store.state.iframe_sessions).length).toBe(before);
  });

  it('passes on the service\'s 400 for an unknown name (exit 2)', async () => {
    const r = await cli(sb, ['-w', '101', 'iframe-url', '--name', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
  });
});

describe('edp api against the sandbox', () => {
  it('pages a list with --paginate and keeps the filters', async () => {
    const r = await cli(sb, ['api', 'GET', '/api/v3/workspaces?page_size=1', '--paginate']);
    expect(r.code).toBe(0);
    expect(r.json().map((w: any) => w.id)).toEqual([101, 102, 103]);
  });

  it('sends a body from --input and reports a 301 for a slashless path without following it', async () => {
    const created = await cli(sb, ['api', 'POST', '/api/v3/workspaces', '--input', '-'], { stdin: '{"title":"From stdin"}' });
    expect(created.json().title).toBe('From stdin');
    const moved = await cli(sb, ['api', 'GET', '/api/v3/recipes', '--basic']);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('canonical path: /api/v3/recipes/');
  });

  it('refuses bad input locally (exit 2)', async () => {
    for (const argv of [
      ['api', 'FETCH', '/x'],
      ['api', 'GET', 'api/v3/workspaces'],
      ['api', 'POST', '/api/v3/workspaces', '--input', '/nonexistent.json'],
      ['api', 'POST', '/api/v3/workspaces', '-f', 'novalue'],
      ['api', 'POST', '/api/v3/workspaces', '--paginate'],
    ]) {
      expect((await cli(sb, argv)).code, argv.join(' ')).toBe(2);
    }
    const notJson = await cli(sb, ['api', 'POST', '/api/v3/workspaces', '--input', '-'], { stdin: '{nope' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--input');
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
    for (let i = 0; i < 347; i++) big.store.state.workspaces.push({ id: 1000 + i, title: `W${i}`, created_at: '' });
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

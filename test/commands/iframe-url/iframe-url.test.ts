import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp iframe-url', () => {
  it('prints the URL with the caller-added parameters', async () => {
    const r = await cli(sb, [
      '-w',
      '101',
      'iframe-url',
      '--type',
      'datasource',
      '--name',
      'google_ads',
      '--show-account-selection',
      '--use-default-auth',
    ]);
    expect(r.code).toBe(0);
    const u = new URL(r.stdout.trim());
    expect(u.pathname).toBe('/api/v3/iframe/');
    expect(u.searchParams.get('type')).toBe('datasource');
    expect(u.searchParams.get('name')).toBe('google_ads');
    expect(u.searchParams.get('show_account_selection')).toBe('True');
    expect(u.searchParams.get('use_default_auth')).toBe('True');
  });

  it('sends the show_* query options', async () => {
    const r = await cli(sb, [
      '-w',
      '101',
      'iframe-url',
      '--no-show-accounts',
      '--show-accounts-only-on-auth',
      '--show-connectors-list',
      '--json',
    ]);
    const code = new URL(r.json().url).searchParams.get('code')!;
    expect(sb.store.state.iframe_sessions[code]!.options).toEqual({
      show_connectors_list: true,
      show_accounts: false,
      show_accounts_only_on_auth: true,
    });
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

  it("passes on the service's 400 for an unknown name (exit 2)", async () => {
    const r = await cli(sb, ['-w', '101', 'iframe-url', '--name', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
  });

  it('a workspace the agency does not have is exit 5, said as the token request says it', async () => {
    const [iframe, token] = await Promise.all([cli(sb, ['-w', '999', 'iframe-url']), cli(sb, ['-w', '999', 'token'])]);
    expect(iframe.code).toBe(5);
    expect(token.code).toBe(5);
    expect(iframe.stderr).toContain('workspace 999 was not found (or is not in this agency)');
    expect(token.stderr).toContain('workspace 999 was not found (or is not in this agency)');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
});

const W = ['-w', '101'];

describe('one error format', () => {
  it('an API error, a usage error and a commander parse error all start with "error:", at a terminal and piped', async () => {
    for (const tty of [false, true]) {
      const api = await cli(sb, ['workspaces', 'get', '999'], { tty });
      expect(api.code).toBe(5);
      expect(api.stderr).toMatch(/^error: 404/);
      const usage = await cli(sb, ['workspaces', 'get', 'abc'], { tty });
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/^error: workspace id must be a positive integer id/);
      const parse = await cli(sb, ['workspaces', 'list', '--bogus'], { tty });
      expect(parse.code).toBe(2);
      expect(parse.stderr).toMatch(/^error: unknown option '--bogus'/);
      for (const r of [api, usage, parse]) expect(r.stderr).not.toContain('Error:');
    }
  });

  it('commander parse errors under --json print the JSON error document (code usage_error) alone, exit 2', async () => {
    const unknown = await cli(sb, ['workspaces', 'list', '--bogus', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.errorJson()).toEqual({
      error: { status: null, code: 'usage_error', message: "unknown option '--bogus'", details: {}, trace_id: null },
    });
    const filtered = await cli(sb, ['workspaces', 'list', '--jq', '.[0]', '--bogus']);
    expect(filtered.code).toBe(2);
    expect(filtered.errorJson().error).toMatchObject({ code: 'usage_error', message: "unknown option '--bogus'" });
    const missing = await cli(sb, ['--json', 'workspaces', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.errorJson().error).toMatchObject({
      status: null,
      code: 'usage_error',
      message: "missing required argument 'id'",
    });
    // the same code as a usage error the tool finds itself
    const local = await cli(sb, ['workspaces', 'get', 'abc', '--json']);
    expect(local.errorJson().error.code).toBe('usage_error');
    expect(unknown.stdout).toBe('');
  });

  it('--limit 0 asks for a whole number of 1 or more', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--limit', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --limit must be a whole number of 1 or more, got 0\n');
  });

  it('a 401 to the environment credentials names them, not advice to set them', async () => {
    const r = await cli(sb, ['workspaces', 'list'], { env: { EDP_PASSWORD: 'wrong' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: 401/);
    expect(r.stderr).toContain(
      'hint: the service refused EDP_USERNAME and EDP_PASSWORD: correct them, or unset both to use the credentials `edp auth login` stores',
    );
  });

  it('an unknown workspace (the token request answers 400) says so and how to list workspaces; exit 5', async () => {
    const r = await cli(sb, ['recipes', 'list', '-w', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: 400: workspace 999 was not found (or is not in this agency); list workspaces with `edp workspaces list`',
    );
    const j = await cli(sb, ['recipes', 'list', '-w', '999', '--json']);
    expect(j.code).toBe(5);
    expect(j.errorJson().error).toMatchObject({
      status: 400,
      message: expect.stringContaining('workspace 999 was not found'),
    });
  });
});

describe('did you mean', () => {
  it('an unknown data source names the closest ones from the data source list', async () => {
    const r = await cli(sb, ['connections', 'list', ...W, '--data-source', 'google_adz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: 400/);
    expect(r.stderr).toContain(
      'hint: "google_adz" is not a data source in this workspace; did you mean google_ads? (`edp datasources list -w 101` lists them)',
    );
    const links = await cli(sb, ['links', 'create', ...W, '--data-source', 'facebok_ads', '--to', 'a@b.example']);
    expect(links.code).toBe(2);
    expect(links.stderr).toContain('did you mean facebook_ads?');
    const templates = await cli(sb, ['extract-templates', 'list', ...W, '--data-source', 'linkedn_ads']);
    expect(templates.code).toBe(2);
    expect(templates.stderr).toContain('did you mean linkedin_ads?');
  });

  it('a known data source that the service refuses for another reason gets no suggestion', async () => {
    const r = await cli(sb, ['links', 'revoke', '99999', ...W, '--data-source', 'google_ads', '-y']);
    expect(r.code).toBe(5);
    expect(r.stderr).not.toContain('hint:');
  });

  it('a misspelt template title, event type and spec key name the closest known ones', async () => {
    const template = await cli(sb, [
      'recipes',
      'deploy',
      ...W,
      '--template',
      'Paid Media Perfromance',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(template.code).toBe(5);
    expect(template.stderr).toContain(
      'no template titled "Paid Media Perfromance"; did you mean "Paid Media Performance"',
    );
    const events = await cli(sb, [
      'webhooks',
      'create',
      ...W,
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'recipe_activate',
    ]);
    expect(events.code).toBe(2);
    expect(events.stderr).toContain('"recipe_activate" (did you mean recipe_activated');
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'spec.json');
      writeFileSync(file, JSON.stringify({ template: 4001, sourcs: [] }));
      const spec = await cli(sb, ['recipes', 'deploy', ...W, '--file', file]);
      expect(spec.code).toBe(2);
      expect(spec.stderr).toMatch(/spec\.json:1:\d+: sourcs: unknown key .*; did you mean "sources"\?/);
    } finally {
      dir.remove();
    }
  });
});

describe('each error printed once', () => {
  it('a failed single-workspace deploy shows its error once, at the step that failed', async () => {
    const r = await cli(sb, [
      'recipes',
      'deploy',
      ...W,
      '--template',
      'Nothing Like It',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(r.code).toBe(5);
    const all = r.stdout + r.stderr;
    expect(all.split('no template titled "Nothing Like It"').length - 1).toBe(1);
    expect(r.stderr).toContain('✗ 2/7 no template titled "Nothing Like It"');
    expect(r.stdout.split('\t')[0]).toBe('101');
  });

  it('with --quiet the steps are silent, so the error is printed once after them', async () => {
    const r = await cli(sb, [
      'recipes',
      'deploy',
      ...W,
      '-q',
      '--template',
      'Nothing Like It',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(r.code).toBe(5);
    expect((r.stdout + r.stderr).split('no template titled "Nothing Like It"').length - 1).toBe(1);
  });
});

describe('auth login names the service it uses', () => {
  it('shows the address and, when nothing answers there, suggests --base-url or EDP_BASE_URL', async () => {
    const cfg = tempDir();
    try {
      const env = { EDP_CONFIG_DIR: cfg.dir, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
      const ok = await cli(sb, ['auth', 'login', '--username', 'agency@sandbox.local', '--password-stdin'], {
        env,
        stdin: 'sandbox\n',
      });
      expect(ok.code).toBe(0);
      expect(ok.stderr).toContain(`Logging in to ${sb.url} as agency@sandbox.local`);
      const down = await cli(
        { url: 'http://127.0.0.1:9' },
        ['auth', 'login', '--username', 'agency@sandbox.local', '--password-stdin'],
        { env, stdin: 'sandbox\n' },
      );
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('Logging in to http://127.0.0.1:9 as agency@sandbox.local');
      expect(down.stderr).toMatch(/^error: /m);
      expect(down.stderr).toContain('pass --base-url URL or set EDP_BASE_URL');
    } finally {
      cfg.remove();
    }
  });
});

describe('cancel and decline', () => {
  it('Ctrl-C at a prompt prints "cancelled" and exits 130', async () => {
    const r = await cli(sb, ['roles', 'delete', '5'], { tty: true, stdin: '\u0003' });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/cancelled\n$/);
    expect(r.stderr).not.toContain('User force closed');
    expect(r.stderr).not.toMatch(/error/i);
  });

  it('declining prints "not confirmed; nothing was changed" without the error label; exit 11 (declined), JSON code not_confirmed', async () => {
    const r = await cli(sb, ['webhooks', 'delete', '1', ...W], { tty: true, stdin: 'n\n' });
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/not confirmed; nothing was changed\n$/);
    expect(r.stderr).not.toContain('error:');
    const j = await cli(sb, ['webhooks', 'delete', '1', ...W, '--json'], { tty: true, stdin: 'n\n' });
    expect(j.code).toBe(11);
    // the prompt leaves its cursor-show sequence on stderr before the document
    expect(JSON.parse(j.stderr.slice(j.stderr.indexOf('{"error"'))).error).toMatchObject({
      status: null,
      code: 'not_confirmed',
      message: 'not confirmed; nothing was changed',
    });
  });
});

describe('-y/--yes on every destructive verb', () => {
  const verbs: string[][] = [
    ['recipes', 'delete', '1', ...W],
    ['webhooks', 'delete', '1', ...W],
    ['webhooks', 'rotate-secret', '1', ...W],
    ['roles', 'delete', '1'],
    ['connections', 'delete', '1', ...W],
    ['loads', 'delete', '1', ...W],
    ['links', 'revoke', '1', ...W, '--data-source', 'google_ads'],
  ];

  it('each accepts -y and --yes; without either, off a terminal, it is exit 2 naming --yes', async () => {
    for (const verb of verbs) {
      for (const flag of ['-y', '--yes']) {
        const r = await cli(sb, [...verb, flag]);
        expect(r.stderr, `${verb.join(' ')} ${flag}`).not.toContain('unknown option');
      }
      const refused = await cli(sb, verb);
      expect([refused.code, refused.stderr.includes('pass --yes')], verb.join(' ')).toEqual([2, true]);
    }
  });

  it('apply takes -y too', async () => {
    const r = await cli(sb, ['apply', '-f', 'no-such-fleet.yaml', '-y']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('unknown option');
  });

  it('links revoke asks on a terminal, about an unused link, and a no leaves it unused', async () => {
    const made = await cli(sb, [
      'links',
      'create',
      ...W,
      '--data-source',
      'google_ads',
      '--to',
      'ask@client.example',
      '--json',
    ]);
    const id = /"id":\s*(\d+)/.exec(made.stdout)![1]!;
    const r = await cli(sb, ['links', 'revoke', id, ...W, '--data-source', 'google_ads'], { tty: true, stdin: 'n\n' });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain(`Revoke link ${id} (google_ads, to ask@client.example) in workspace 101?`);
    const list = await cli(sb, ['links', 'list', ...W, '--data-source', 'google_ads', '--json']);
    expect(list.stdout).toMatch(new RegExp(`"id":\\s*${id},[^}]*"status":\\s*"not_used"`));
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, parse, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(() => sb.close());

describe('edp api', () => {
  it('takes the method and path as arguments and collects repeated fields in order', async () => {
    const { parsed } = await parse([
      'api',
      'POST',
      '/api/v3/workspaces',
      '-f',
      'title=A',
      '-F',
      'n=1',
      '--field',
      'x=y',
      '--bearer',
    ]);
    expect(parsed?.opts).toEqual({
      args: ['POST', '/api/v3/workspaces'],
      field: ['title=A', 'x=y'],
      typedField: ['n=1'],
      bearer: true,
    });
    const missing = await cli(undefined, ['api', 'GET']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing the path: `edp api GET /api/v3/PATH`');
  });
});

describe('edp api against the sandbox', () => {
  it('pages a list with --paginate and keeps the filters', async () => {
    const r = await cli(sb, ['api', 'GET', '/api/v3/workspaces?page_size=1', '--paginate']);
    expect(r.code).toBe(0);
    expect(r.json().map((w: any) => w.id)).toEqual([101, 102, 103]);
  });

  it('a path alone is a GET, as in gh; with --input a POST', async () => {
    const r = await cli(sb, ['api', '/api/v3/workspaces']);
    expect(r.code).toBe(0);
    expect(r.json().results.map((w: any) => w.id)).toEqual([101, 102, 103]);
    const created = await cli(sb, ['api', '/api/v3/workspaces', '--input', '-'], { stdin: '{"title":"Posted"}' });
    expect(created.code).toBe(0);
    expect(created.json().title).toBe('Posted');
  });

  it('sends a body from --input and reports a 301 for a slashless path without following it', async () => {
    const created = await cli(sb, ['api', 'POST', '/api/v3/workspaces', '--input', '-'], {
      stdin: '{"title":"From stdin"}',
    });
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

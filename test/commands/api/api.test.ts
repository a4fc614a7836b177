import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, parse, sandbox } from '../../helpers.js';

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

  it('sends a body from --input and reports a 301 to a write without following it', async () => {
    const created = await cli(sb, ['api', 'POST', '/api/v3/workspaces', '--input', '-'], {
      stdin: '{"title":"From stdin"}',
    });
    expect(created.json().title).toBe('From stdin');
    const moved = await cli(sb, ['api', 'POST', '/api/v3.1/automated-recipes', '-w', '101', '-F', 'template_id=4001']);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('canonical path: /api/v3.1/automated-recipes/');
    const sent = (await http(sb, 'GET', '/_sandbox/requests')).body.results.map((e: any) => `${e.method} ${e.path}`);
    expect(sent.filter((l: string) => l.startsWith('POST /api/v3.1/automated-recipes'))).toEqual([
      'POST /api/v3.1/automated-recipes',
    ]);
  });

  it('a GET the service moves to its canonical path is sent there once, with its query and fields', async () => {
    const r = await cli(sb, ['api', '/api/v3.1/automated-recipe-templates?page_size=2', '-w', '101', '-f', 'page=1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'the service moved /api/v3.1/automated-recipe-templates?page_size=2 to /api/v3.1/automated-recipe-templates/?page_size=2: sent there',
    );
    expect(r.json().results).toHaveLength(2);
    const sent = (await http(sb, 'GET', '/_sandbox/requests')).body.results.map((e: any) => `${e.method} ${e.path}`);
    expect(sent.filter((l: string) => l.includes('automated-recipe-templates'))).toEqual([
      'GET /api/v3.1/automated-recipe-templates',
      'GET /api/v3.1/automated-recipe-templates/',
    ]);
  });

  it('a path of no operation is said to be one, with the nearest operation paths', async () => {
    const typo = await cli(sb, ['api', '/api/v3/datasourcs', '-w', '101']);
    expect(typo.code).toBe(5);
    expect(typo.stderr).toContain(
      'hint: no operation of the contract has the path /api/v3/datasourcs; did you mean /api/v3/datasources or',
    );
    const noWorkspace = await cli(sb, ['api', '/api/v3/workspacs']);
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toContain('; did you mean /api/v3/workspaces?');
    const withIds = await cli(sb, ['api', '/api/v3/extract/12', '-w', '101']);
    expect(withIds.stderr).toContain('did you mean /api/v3/extracts/12,');
    // A path of the contract that is not found gets no such hint.
    const missing = await cli(sb, ['api', '/api/v3/extracts/999999', '-w', '101']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).not.toContain('no operation');
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

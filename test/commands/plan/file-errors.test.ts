import { describe, expect, it } from 'vitest';
import { cli } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';

const file = useFiles('edp-fleet-errors-');

// No request is made for a file that cannot be read: no service is needed, and none is given.
const NOWHERE = { url: 'http://127.0.0.1:9' };

const BAD = [
  'workspaces: 101', //                                        1
  'recipes:', //                                               2
  '  - template_id: 4001', //                                  3
  '    sync_from: 2024-01-01', //                              4
  'webhooks:', //                                              5
  '  - url: https://hooks.example.com/edp', //                 6
  '    evnts: [recipe_activated]', //                          7
  'roles:', //                                                 8
  '  - title: Buyer', //                                       9
  '    permissions: [5]', //                                   10
  '',
].join('\n');

describe('fleet-file errors a person can act on', () => {
  it('names the file, line and column, key path, what was expected and the nearest key, every problem at once', async () => {
    const path = file('fleet.yaml', BAD);
    const r = await cli(NOWHERE, ['plan', '-f', path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error: --file ${path} is not a valid fleet file:`);
    expect(lines.slice(1)).toEqual([
      `  ${path}:1:1: workspaces: expected "all" or a list of workspace ids ([101], not 101), got a number`,
      `  ${path}:3:5: recipes[0].template: missing: expected a template id or name`,
      `  ${path}:3:5: recipes[0].sources: missing: expected a list`,
      expect.stringMatching(
        new RegExp(
          `^  ${path}:3:5: recipes\\[0\\]\\.template_id: unknown key \\(known: .*\\); did you mean "template"\\?$`,
        ),
      ),
      expect.stringMatching(/:4:5: recipes\[0\]\.sync_from: unknown key .*; did you mean "sync_from_date"\?$/),
      `  ${path}:6:5: webhooks[0].events: missing: expected a list`,
      expect.stringMatching(
        /:7:5: webhooks\[0\]\.evnts: unknown key \(known: url, events, workspaces\); did you mean "events"\?$/,
      ),
      `  ${path}:10:19: roles[0].permissions[0]: expected LAYER:PERMISSION (for example EXTRACT:CREATE) or {layer, permission}, got a number`,
    ]);
  });

  it('one mistake is one message: a date that is not a date is not also said not to exist', async () => {
    const path = file(
      'date.yaml',
      'workspaces: [101]\nrecipes:\n  - template: 4001\n    sync_from_date: yesterday\n    sources: []\n',
    );
    const r = await cli(NOWHERE, ['plan', '-f', path]);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/sync_from_date/g)).toHaveLength(1);
    expect(r.stderr).toContain('recipes[0].sync_from_date: must be a date as YYYY-MM-DD');
    const impossible = file(
      'date2.yaml',
      'workspaces: [101]\nrecipes:\n  - template: 4001\n    sync_from_date: 2024-02-30\n    sources: []\n',
    );
    expect((await cli(NOWHERE, ['plan', '-f', impossible])).stderr).toContain(
      'sync_from_date: must be a date that exists',
    );
  });

  it('--json carries the same problems in details, one entry each', async () => {
    const path = file('fleet-json.yaml', BAD);
    const r = await cli(NOWHERE, ['plan', '-f', path, '--json']);
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stdout || r.stderr);
    expect(error.code).toBe('usage_error');
    expect(error.details.file).toBe(path);
    expect(error.details.problems).toHaveLength(8);
    expect(error.details.problems).toContainEqual({
      path: 'recipes[0].sync_from',
      message: 'unknown key (known: template, title, sync_from_date, sources, workspaces)',
      line: 4,
      column: 5,
      suggestion: 'sync_from_date',
    });
    expect(error.details.problems[0]).toEqual({
      path: 'workspaces',
      message: 'expected "all" or a list of workspace ids ([101], not 101), got a number',
      line: 1,
      column: 1,
      suggestion: null,
    });
  });

  it('a syntax error names the file, line and column, in YAML and in JSON', async () => {
    const yaml = file('broken.yaml', 'workspaces: [101\nrecipes: x: y\n');
    const y = await cli(NOWHERE, ['plan', '-f', yaml]);
    expect(y.code).toBe(2);
    expect(y.stderr).toMatch(new RegExp(`^error: --file ${yaml} is not valid JSON or YAML:\\n  ${yaml}:2:1: \\S`));
    expect(y.stderr).not.toMatch(/:\s*$/);
    const json = file('broken.json', '{"workspaces": [101],\n "recipes": [],}\n');
    const j = await cli(NOWHERE, ['plan', '-f', json]);
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(new RegExp(`${json}:2:16: `));
    const twice = file('twice.json', '{"workspaces": [101],\n "workspaces": "all"}\n');
    const t = await cli(NOWHERE, ['apply', '-f', twice, '--yes']);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain(`${twice}:2:2: the key "workspaces" is given twice`);
  });

  it('checks made after the schema (a role named twice, a bad permission) carry positions too', async () => {
    const path = file(
      'roles.yaml',
      'workspaces: all\nroles:\n  - title: A\n    permissions: [EXTRACT]\n  - title: A\n    permissions: []\n',
    );
    const r = await cli(NOWHERE, ['plan', '-f', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`${path}:4:19: roles\\[0\\]\\.permissions\\[0\\]: "EXTRACT" is not LAYER:PERMISSION`),
    );
    expect(r.stderr).toMatch(new RegExp(`${path}:5:5: roles\\[1\\]: same as roles\\[0\\]`));
  });
});

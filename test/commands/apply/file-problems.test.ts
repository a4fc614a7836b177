import { describe, expect, it, vi } from 'vitest';
import { cli } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';

const file = useFiles('edp-apply-file-problems-');

// No request is made for a file that cannot be read: no service is needed, and none is given.
const NOWHERE = { url: 'http://127.0.0.1:9' };

describe('apply: a fleet file that cannot be used', () => {
  it('an unknown tag is a problem with its place; under --json stderr holds the error document only', async () => {
    const path = file(
      'tagged.yaml',
      'workspaces: [101]\nwebhooks:\n  - url: !!js/function "function () {}"\n    events: [workspace_created]\n',
    );
    const warned = vi.spyOn(process, 'emitWarning');
    try {
      const r = await cli(NOWHERE, ['apply', '-f', path, '--yes', '--json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      const { error } = r.errorJson();
      expect(error.code).toBe('usage_error');
      expect(error.details).toEqual({
        file: path,
        problems: [
          {
            path: '',
            message:
              'unknown tag !!js/function: only plain YAML values are read (strings, numbers, true/false, null, lists, mappings)',
            line: 3,
            column: 10,
            suggestion: null,
          },
        ],
        more: 0,
      });
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });

  it('many problems: the first 50 in the order of the file, then how many more, as text and as details', async () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `unknown_${i}: 1`);
    const path = file('many.yaml', `workspaces: [101]\n${keys.join('\n')}\n`);
    const text = await cli(NOWHERE, ['apply', '-f', path, '--yes']);
    expect(text.code).toBe(2);
    const lines = text.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error: --file ${path} is not a valid fleet file:`);
    expect(lines.slice(1, -1)).toHaveLength(50);
    expect(lines[1]).toBe(
      `  ${path}:2:1: unknown_0: unknown key (known: workspaces, clients, recipes, webhooks, roles, extracts, destinations, accounts, tables)`,
    );
    expect(lines.at(-1)).toBe('  and 4,950 more problems');

    const json = await cli(NOWHERE, ['apply', '-f', path, '--yes', '--json']);
    expect(json.code).toBe(2);
    const details = json.errorJson().error.details as { problems: Array<{ path: string }>; more: number };
    expect(details.problems.map((p) => p.path)).toEqual(keys.slice(0, 50).map((k) => k.split(':')[0]));
    expect(details.more).toBe(4_950);
  });
});

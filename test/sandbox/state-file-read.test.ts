import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, sandbox, tempDir } from '../helpers.js';

// The --state file is read as every file edp reads is: a file that cannot be used stops the
// start, naming the file, what is wrong and where, and is left as it was.

const dir = tempDir('edp-state-read-');
afterAll(() => dir.remove());
let n = 0;
const stateFile = (content: string | Buffer) => {
  const path = join(dir.dir, `state-${++n}.json`);
  writeFileSync(path, content);
  return path;
};

describe('sandbox --state: a file that cannot be read', () => {
  it.each([
    ['cut short', '{"workspaces": [', (f: string) => `--state ${f} is not valid JSON:\n  ${f}:1:17: `],
    [
      'with a key given twice',
      '{"workspaces": [],\n "workspaces": []}',
      (f: string) => `--state ${f} is not a valid document:\n  ${f}:2:2: the key "workspaces" is given twice`,
    ],
    [
      'with a number out of range',
      '{"seq": {"workspace": 1e400}}',
      (f: string) => `--state ${f} is not a valid document:\n  ${f}:1:23: seq.workspace: the number 1e400 is too large`,
    ],
    [
      'nested past the bound',
      `{"x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      (f: string) => `--state ${f} is not a valid document:\n  ${f}:1:262: x`,
    ],
    [
      'not UTF-8',
      Buffer.concat([Buffer.from('{"title": "Caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
      (f: string) => `--state: ${f} is not UTF-8 text (the byte 0xE9 at line 1, column 15, byte offset 14)`,
    ],
    ['not an object', '[]', (f: string) => `--state ${f} is not a sandbox state file (its JSON is not an object)`],
  ])('a file %s is refused naming the file, and left as it was', async (_what, content, message) => {
    const file = stateFile(content);
    await expect(sandbox({ stateFile: file })).rejects.toThrow(message(file));
    expect(readFileSync(file).equals(Buffer.from(content))).toBe(true);
  });

  it('`edp sandbox --state` stops with the message and exit 1, saying what to do', async () => {
    const file = stateFile('{"workspaces": [],\n "workspaces": []}');
    const r = await cli(undefined, ['sandbox', '--port', '0', '--state', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: --state ${file} is not a valid document:\n  ${file}:2:2: the key "workspaces" is given twice\nfix or delete ${file} (deleted, the sandbox starts from its demo data)\n`,
    );
  });
});

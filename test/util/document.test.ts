import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseDocument, readSource } from '../../src/util/document.js';
import { MAX_INPUT_FILE_BYTES } from '../../src/util/stdin.js';
import { tempDir } from '../helpers.js';
import { stringifyJson } from '../../src/util/json.js';

describe('JSON or YAML documents', () => {
  it('keeps safe integers as numbers and larger ones exact, in YAML and in JSON', async () => {
    const yaml = (await parseDocument('max_file_size_mb: 500\nrecipe: 9007199254740993\n', '--file')) as Record<
      string,
      unknown
    >;
    expect(yaml.max_file_size_mb).toBe(500);
    expect(stringifyJson(yaml)).toBe('{"max_file_size_mb":500,"recipe":9007199254740993}');
    const json = await parseDocument('{"max_file_size_mb": 500, "recipe": 9007199254740993}', '--file');
    expect(stringifyJson(json)).toBe('{"max_file_size_mb":500,"recipe":9007199254740993}');
  });

  it('names the flag when the text is neither', async () => {
    await expect(parseDocument('{"a": ', '--settings-file')).rejects.toThrow(
      /^--settings-file is not valid JSON or YAML:\n {2}line 1:7: /,
    );
    await expect(parseDocument('a: [1, 2', '--file', 'f.yaml')).rejects.toThrow(
      /^--file f\.yaml is not valid JSON or YAML:\n {2}f\.yaml:1:9: /,
    );
  });
});

describe('documents a person wrote', () => {
  it('refuses a key given twice in JSON, as YAML does, naming the key, the object and the line', async () => {
    const text = '{\n  "workspaces": [101],\n  "roles": [\n    {"title": "A", "permissions": [], "title": "B"}\n  ]\n}';
    await expect(parseDocument(text, '--file')).rejects.toThrow(
      '--file is not a valid document:\n  line 4:1: roles[0]: the key "title" is given twice',
    );
    await expect(parseDocument('{"a": 1, "a": 2}', '--file')).rejects.toThrow('line 1:1: the key "a" is given twice');
    await expect(parseDocument('a: 1\na: 2\n', '--file')).rejects.toThrow(/^--file is not valid JSON or YAML/);
    // The same key in different objects, or inside strings, is fine.
    expect(await parseDocument('[{"a": 1}, {"a": "\\"a\\": 2, \\"a\\""}]', '--file')).toEqual([
      { a: 1 },
      { a: '"a": 2, "a"' },
    ]);
  });

  it('refuses a file that is not UTF-8 or is too large, naming the flag, before reading it whole', async () => {
    const dir = tempDir();
    try {
      const bad = join(dir.dir, 'fleet.yaml');
      writeFileSync(
        bad,
        Buffer.concat([
          Buffer.from('workspaces: [101]\nroles:\n  - title: Caf'),
          Buffer.from([0xe9]),
          Buffer.from('\n'),
        ]),
      );
      await expect(readSource(bad, new PassThrough(), '--file')).rejects.toThrow(
        `--file: ${bad} is not UTF-8 text (an invalid byte on line 3); save it as UTF-8`,
      );
      const big = join(dir.dir, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, MAX_INPUT_FILE_BYTES + 1);
      await expect(readSource(big, new PassThrough(), '--file')).rejects.toThrow(
        `--file: ${big} is larger than 16 MiB, the most edp reads`,
      );
      const stdin = new PassThrough();
      stdin.end(Buffer.from([0x7b, 0xff, 0x7d]));
      await expect(readSource('-', stdin, '--file')).rejects.toThrow('--file: standard input is not UTF-8 text');
      // A byte order mark is dropped.
      const bom = join(dir.dir, 'bom.json');
      writeFileSync(bom, '\uFEFF{"a": 1}');
      expect(await parseDocument((await readSource(bom, new PassThrough(), '--file')).text, '--file')).toEqual({
        a: 1,
      });
    } finally {
      dir.remove();
    }
  });
});

import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  checkDocument,
  DocumentError,
  MAX_LISTED_PROBLEMS,
  parseDocument,
  readSource,
} from '../../src/util/document.js';
import { closest, editDistance } from '../../src/util/did-you-mean.js';
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
      '--file is not a valid document:\n  line 4:39: roles[0]: the key "title" is given twice',
    );
    await expect(parseDocument('{"a": 1, "a": 2}', '--file')).rejects.toThrow('line 1:10: the key "a" is given twice');
    await expect(parseDocument('a: 1\nb:\n  c: 1\n  c: 2\na: 2\n', '--file')).rejects.toThrow(
      '--file is not a valid document:\n  line 4:3: b: the key "c" is given twice\n  line 5:1: the key "a" is given twice',
    );
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
        `--file: ${bad} is not UTF-8 text (the byte 0xE9 at line 3, column 15, byte offset 39); save it as UTF-8`,
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

describe('documents with many problems', () => {
  const schema = z.object({ workspaces: z.array(z.number()), roles: z.array(z.string()).optional() }).strict();
  const check = async (text: string) => {
    const doc = await parseDocument(text, '--file', 'fleet');
    return checkDocument(doc, '--file', 'fleet file', schema, { text, name: 'fleet' }).then(
      () => undefined,
      (err: unknown) => err as DocumentError,
    );
  };

  it('lists the first problems in the order of the file, then the count of the others, in text and in details', async () => {
    const keys = Array.from({ length: 120 }, (_, i) => `k${i}: 1`);
    const err = await check(`workspaces: [101]\n${keys.join('\n')}\nrolse: []\n`);
    expect(err).toBeInstanceOf(DocumentError);
    const lines = err!.message.split('\n');
    expect(lines[0]).toBe('--file fleet is not a valid fleet file:');
    expect(lines[1]).toBe('  fleet:2:1: k0: unknown key (known: workspaces, roles)');
    expect(lines[MAX_LISTED_PROBLEMS]).toBe(
      `  fleet:${MAX_LISTED_PROBLEMS + 1}:1: k49: unknown key (known: workspaces, roles)`,
    );
    expect(lines.slice(MAX_LISTED_PROBLEMS + 1)).toEqual(['  and 71 more problems']);
    expect(err!.details.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(err!.details.more).toBe(71);
    expect(err!.details.problems[0]).toEqual({
      path: 'k0',
      message: 'unknown key (known: workspaces, roles)',
      line: 2,
      column: 1,
      suggestion: null,
    });

    // Under the cap, every problem is listed, with its suggestion, and none is left out.
    const few = await check('workspaces: [101]\nrolse: []\n');
    expect(few!.message).toBe(
      '--file fleet is not a valid fleet file:\n  fleet:2:1: rolse: unknown key (known: workspaces, roles); did you mean "roles"?',
    );
    expect(few!.details.more).toBe(0);
  });

  it('places every problem of a very large document, in YAML and in JSON', { timeout: 60_000 }, async () => {
    const keys = (count: number) => Array.from({ length: count }, (_, i) => `key_${i}`);
    // 50,000 keys in JSON (840 kB of text, placed in one pass over it); 20,000 in YAML, whose
    // parser alone takes seconds for more.
    const yaml = ['workspaces: [101]', ...keys(20_000).map((k) => `${k}: 1`)].join('\n');
    const fromYaml = await check(yaml);
    expect(fromYaml!.details.more).toBe(20_000 - MAX_LISTED_PROBLEMS);
    expect(fromYaml!.details.problems.at(-1)).toMatchObject({ path: 'key_49', line: 51, column: 1 });
    const json = JSON.stringify(
      Object.fromEntries([['workspaces', [101]], ...keys(50_000).map((k) => [k, 1])]),
      null,
      1,
    );
    const fromJson = await check(json);
    expect(fromJson!.details.more).toBe(50_000 - MAX_LISTED_PROBLEMS);
    expect(fromJson!.details.problems.at(-1)).toMatchObject({ path: 'key_49', line: 54, column: 2 });
  });

  it('places fields in JSON by their key, list items by their value, and a missing field at its object', async () => {
    const nested = z
      .object({ a: z.array(z.object({ b: z.string(), c: z.string() }).strict()), 'd"e': z.number() })
      .strict();
    const text = '{"a": [\n  {"b": "x"},\n  {"b": 1, "c": "y", "z": 0}\n], "d\\"e": "no"}';
    const doc = await parseDocument(text, '--file');
    const err = await checkDocument(doc, '--file', 'thing', nested, { text, name: 'f.json' }).then(
      () => undefined,
      (e: unknown) => e as DocumentError,
    );
    expect(err!.details.problems.map((p) => [p.path, p.line, p.column])).toEqual([
      ['a[0].c', 2, 3],
      ['a[1].b', 3, 4],
      ['a[1].z', 3, 22],
      ['d"e', 4, 4],
    ]);
  });

  it('reads an unknown tag as a problem of the document, never as a warning on the process', async () => {
    const warned = vi.spyOn(process, 'emitWarning');
    try {
      const text = 'workspaces: [101]\nwebhooks:\n  - url: !!js/function "function () {}"\n    events: [a]\n';
      await expect(parseDocument(text, '--file', 'fleet.yaml')).rejects.toThrow(
        '--file fleet.yaml is not a valid document:\n  fleet.yaml:3:10: unknown tag !!js/function: only plain YAML values are read',
      );
      // A key that is a list: the schema names it; the YAML library would warn as it reads it.
      const doc = await parseDocument('workspaces: [101]\n? [a, b]\n: 1\n', '--file');
      expect(Object.keys(doc as object)).toEqual(['workspaces', '[ a, b ]']);
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });
});

describe('did you mean', () => {
  it('measures edits with transpositions, and finds the near names of any name at the cost of its length', () => {
    expect(editDistance('goolge_ads', 'google_ads')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('rolse', ['workspaces', 'recipes', 'webhooks', 'roles'])).toEqual(['roles']);
    expect(closest('web', ['workspaces', 'webhooks'])).toEqual(['webhooks']);
    // A name far longer than any known one is never near, and is not compared letter by letter.
    expect(closest('x'.repeat(1_000_000), ['workspaces', 'roles'])).toEqual([]);
    expect(closest(`roles${'x'.repeat(1_000_000)}`, ['workspaces', 'roles'])).toEqual(['roles']);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentError, parseDocument, parseJsonDocument, readJsonFile, readSource } from '../../src/util/document.js';
import { MAX_JSON_DEPTH, stringifyJson } from '../../src/util/json.js';
import { decodeUtf8, invalidUtf8At, readInputFileSync } from '../../src/util/stdin.js';
import { tempDir } from '../helpers.js';

// Every file edp reads (a fleet file, a saved plan, the secrets file, --input, --state) goes
// through these checks: UTF-8 text, no key given twice, a bounded depth, numbers a double holds.

const dir = tempDir('edp-reader-');
afterAll(() => dir.remove());
const file = (name: string, content: string | Buffer) => {
  const p = join(dir.dir, name);
  writeFileSync(p, content);
  return p;
};

/** The error a document gives, with its listed problems. */
async function refusal(read: () => unknown): Promise<DocumentError> {
  try {
    await read();
  } catch (err) {
    if (err instanceof DocumentError) return err;
    throw err;
  }
  throw new Error('the document was read');
}

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('UTF-8, byte by byte', () => {
  it('takes well-formed UTF-8 of every length, up to U+10FFFF', () => {
    const text = 'a é € 𝄞 \u{10FFFF} \uFEFF';
    expect(invalidUtf8At(Buffer.from(text))).toBe(-1);
    expect(invalidUtf8At(bytes())).toBe(-1);
  });

  it.each([
    ['a Latin-1 byte', [0x43, 0x61, 0x66, 0xe9, 0x0a], 3],
    ['a continuation byte alone', [0x61, 0x80], 1],
    ['a sequence cut short at the end', [0x61, 0xe2, 0x82], 1],
    ['a sequence cut short by an ASCII byte', [0xe2, 0x41, 0x41], 0],
    ['an overlong two-byte form (C0 AF, a "/")', [0x61, 0xc0, 0xaf], 1],
    ['an overlong two-byte form (C1 81)', [0xc1, 0x81], 0],
    ['an overlong three-byte form (E0 80 AF)', [0x61, 0x62, 0xe0, 0x80, 0xaf], 2],
    ['an overlong four-byte form (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf], 0],
    ['a lone surrogate encoded as UTF-8 (U+D800)', [0x61, 0xed, 0xa0, 0x80], 1],
    ['a surrogate pair encoded as CESU-8 (U+1F600)', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], 0],
    ['a code point past U+10FFFF (F4 90 80 80)', [0x20, 0xf4, 0x90, 0x80, 0x80], 1],
    ['a lead byte no UTF-8 has (F5)', [0xf5, 0x80, 0x80, 0x80], 0],
    ['a byte no UTF-8 has (FF)', [0x7b, 0xff, 0x7d], 1],
  ])('finds %s', (_what, given, at) => {
    expect(invalidUtf8At(Uint8Array.from(given))).toBe(at);
    // The decoder the tool reads with agrees that the text is not UTF-8.
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(given))).toThrow();
  });

  it('names the file, the line and column (in characters) and the byte offset of the first bad byte', () => {
    const text = Buffer.concat([Buffer.from('workspaces: [101]\nroles:\n  - title: Rôle Caf'), bytes(0xe9, 0x0a)]);
    expect(() => decodeUtf8(text, 'fleet.yaml', '--file')).toThrow(
      '--file: fleet.yaml is not UTF-8 text (the byte 0xE9 at line 3, column 20, byte offset 45); save it as UTF-8',
    );
    // A character U+FFFD written in the file is text like any other: the bad byte is found after it.
    const replacement = Buffer.concat([Buffer.from('a: "\uFFFD"\nb: '), bytes(0xc0, 0xaf)]);
    expect(() => decodeUtf8(replacement, 'f', '--file')).toThrow('(the byte 0xC0 at line 2, column 4, byte offset 12)');
  });

  it('says UTF-16 text is UTF-16', () => {
    const utf16 = Buffer.concat([bytes(0xff, 0xfe), Buffer.from('{"a": 1}', 'utf16le')]);
    expect(() => decodeUtf8(utf16, 'plan.json', 'saved plan')).toThrow(
      'saved plan: plan.json is UTF-16 text, not UTF-8; save it as UTF-8',
    );
  });

  it('drops a leading byte order mark, and keeps one further in', () => {
    expect(decodeUtf8(Buffer.from('\uFEFF{"a": "\uFEFF"}'), 'f', '--file')).toBe('{"a": "\uFEFF"}');
  });

  it('reads a file at once as it reads one given to a flag: the same refusals, naming the flag', async () => {
    const latin1 = file('latin1.json', Buffer.from('{"title": "Café"}', 'latin1'));
    const message = `--input: ${latin1} is not UTF-8 text (the byte 0xE9 at line 1, column 15, byte offset 14); save it as UTF-8`;
    expect(() => readInputFileSync(latin1, '--input')).toThrow(message);
    await expect(readSource(latin1, new PassThrough(), '--input')).rejects.toThrow(message);
    expect(() => readInputFileSync(join(dir.dir, 'none.json'), '--state')).toThrow(
      `--state: cannot read ${join(dir.dir, 'none.json')}: no such file`,
    );
    expect(() => readInputFileSync(dir.dir, '--state')).toThrow('is a folder');
    const bom = file('bom.json', '\uFEFF{"a": 1}\n');
    expect(readJsonFile(bom, '--secrets-file').doc).toEqual({ a: 1 });
  });
});

describe('JSON files', () => {
  it('refuses a key given twice in nested objects and in objects inside lists, naming the key, the file, line and column', async () => {
    const nested = '{\n  "a": {\n    "b": {"c": 1,\n          "c": 2}\n  }\n}';
    const e = await refusal(() => parseJsonDocument(nested, '--input', 'body.json'));
    expect(e.message).toBe(
      '--input body.json is not a valid document:\n  body.json:4:11: a.b: the key "c" is given twice',
    );
    expect(e.details).toMatchObject({ file: 'body.json', problems: [{ path: 'a.b', line: 4, column: 11 }] });
    const inList = '[{"id": 1}, {"id": 2, "x": [{"k": 1, "\\u006b": 2}]}]';
    expect((await refusal(() => parseJsonDocument(inList, 'saved plan', 'p.json'))).message).toBe(
      'saved plan p.json is not a valid document:\n  p.json:1:38: [1].x[0]: the key "k" is given twice',
    );
  });

  it('refuses nesting past the bound, naming the file and where, before anything walks it', async () => {
    const at = (depth: number) => `{"a": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(parseJsonDocument(at(MAX_JSON_DEPTH), '--state', 's.json')).toBeDefined();
    const e = await refusal(() => parseJsonDocument(at(100_000), '--state', 's.json'));
    expect(e.message).toBe(
      `--state s.json is not a valid document:\n  s.json:1:${7 + MAX_JSON_DEPTH - 1}: a${'[0]'.repeat(MAX_JSON_DEPTH - 1)}: nested more than ${MAX_JSON_DEPTH} levels deep, more than edp reads`,
    );
  });

  it.each([
    ['1e400', '1e400'],
    ['-1e400', '-1e400'],
    ['1.8E+308', '1.8E+308'],
    [`1${'0'.repeat(400)}.5`, `1${'0'.repeat(36)}...`],
  ])('refuses the number %s as a number out of range, with its place', async (n, shown) => {
    const text = `{"workspaces": [101, ${n}]}`;
    const e = await refusal(() => parseJsonDocument(text, '--file', 'fleet.json'));
    expect(e.message).toBe(
      `--file fleet.json is not a valid document:\n  fleet.json:1:22: workspaces[1]: the number ${shown} is too large: a number must be within ±1.8e308`,
    );
  });

  it('reads numbers a double holds, huge integers exactly, and the same text inside strings', () => {
    const text =
      '{"a": 1e308, "b": -1.7976931348623157e308, "c": 1e-400, "d": "1e400", "e": 123456789012345678901234567890}';
    const doc = parseJsonDocument(text, '--file') as Record<string, unknown>;
    expect(doc).toMatchObject({ a: 1e308, b: -1.7976931348623157e308, c: 0, d: '1e400' });
    expect(stringifyJson(doc.e)).toBe('123456789012345678901234567890');
  });

  it('places a syntax error by line and column in the file', async () => {
    const e = await refusal(() => parseJsonDocument('{\n  "a": [1,\n', '--secrets-file', 'sec.json'));
    expect(e.message).toMatch(/^--secrets-file sec\.json is not valid JSON:\n {2}sec\.json:3:1: /);
  });
});

describe('YAML files', () => {
  it('refuses a key given twice in mappings inside lists', async () => {
    const text = 'workspaces: [101]\nroles:\n  - title: A\n    permissions: []\n    title: B\n';
    expect((await refusal(() => parseDocument(text, '--file', 'f.yaml'))).message).toBe(
      '--file f.yaml is not a valid document:\n  f.yaml:5:5: roles[0]: the key "title" is given twice',
    );
  });

  it('refuses nesting past the bound as JSON does, and nesting that would exhaust the parser the same way', async () => {
    const flow = (depth: number) => `workspaces: [101]\nx: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`;
    expect(await parseDocument(flow(MAX_JSON_DEPTH), '--file', 'f.yaml')).toBeDefined();
    const over = await refusal(() => parseDocument(flow(MAX_JSON_DEPTH + 1), '--file', 'f.yaml'));
    expect(over.message).toBe(
      `--file f.yaml is not a valid document:\n  f.yaml:2:${3 + MAX_JSON_DEPTH}: x${'[0]'.repeat(MAX_JSON_DEPTH - 1)}: nested more than ${MAX_JSON_DEPTH} levels deep, more than edp reads`,
    );
    for (const text of [
      flow(5_000),
      `x:\n  ${'- '.repeat(5_000)}1\n`,
      `x: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}\n`,
    ]) {
      const e = await refusal(() => parseDocument(text, '--file', 'deep.yaml'));
      expect(e.message).toMatch(
        new RegExp(
          `^--file deep\\.yaml is not a valid document:\\n  deep\\.yaml:\\d+:\\d+: nested more than ${MAX_JSON_DEPTH} levels deep`,
        ),
      );
    }
  });

  it('refuses numbers a double cannot hold, infinity and not-a-number', async () => {
    const text = 'workspaces: [1e400]\nlimits:\n  - -1e400\n  - .inf\n  - .nan\nok: 1e308\n';
    expect((await refusal(() => parseDocument(text, '--file', 'f.yaml'))).message).toBe(
      [
        '--file f.yaml is not a valid document:',
        '  f.yaml:1:14: workspaces[0]: the number 1e400 is too large: a number must be within ±1.8e308',
        '  f.yaml:3:5: limits[0]: the number -1e400 is too large: a number must be within ±1.8e308',
        '  f.yaml:4:5: limits[1]: the number .inf is too large: a number must be within ±1.8e308',
        '  f.yaml:5:5: limits[2]: .nan (not a number) is not a value edp reads',
      ].join('\n'),
    );
    expect(await parseDocument('a: 1e308\nb: "1e400"\n', '--file')).toEqual({ a: 1e308, b: '1e400' });
  });
});

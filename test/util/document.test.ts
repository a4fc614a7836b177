import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/util/document.js';
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
      /^--settings-file: not valid JSON or YAML/,
    );
    await expect(parseDocument('a: [1, 2', '--file')).rejects.toThrow(/^--file: not valid JSON or YAML/);
  });
});

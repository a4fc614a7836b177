import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretsFileWriter, readSecretsFile } from '../../src/fleet/secrets-file.js';
import { anySecret } from '../../src/commands/webhooks/shared/receiver.js';
import { tempDir } from '../helpers.js';

const entry = (ws: string, id: string, secret: string) => ({
  workspace_id: ws,
  endpoint_id: id,
  url: 'http://127.0.0.1:4011/hook',
  secret,
});

describe('the secrets file', () => {
  it('records entries one write at a time, 0600, keeping the others and replacing a repeated endpoint', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const w = new SecretsFileWriter(path);
      w.check();
      await Promise.all([
        w.record(entry('101', '1', 'a')),
        w.record(entry('102', '2', 'b')),
        w.record(entry('103', '3', 'c')),
      ]);
      await w.record(entry('102', '2', 'b2'));
      expect(readSecretsFile(path).map((e) => [e.workspace_id, e.endpoint_id, e.secret])).toEqual([
        ['101', '1', 'a'],
        ['103', '3', 'c'],
        ['102', '2', 'b2'],
      ]);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      // A second writer (another apply) keeps what the first wrote.
      await new SecretsFileWriter(path).record(entry('104', '4', 'd'));
      expect(readSecretsFile(path)).toHaveLength(4);
    } finally {
      dir.remove();
    }
  });

  it('refuses a file that is not one, naming it, before anything is written', () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'other.json');
      writeFileSync(path, '{"profiles": {}}');
      expect(() => new SecretsFileWriter(path).check()).toThrow(
        `--secrets-file: ${path} is not a secrets file written by \`edp apply --secrets-file\``,
      );
      writeFileSync(path, '{"format_version": 1, "endpoints": [{"endpoint_id": 1}]}');
      expect(() => readSecretsFile(path)).toThrow('endpoints[0].secret is missing');
      expect(() => readSecretsFile(join(dir.dir, 'none.json'))).toThrow('no such file');
    } finally {
      dir.remove();
    }
  });

  it('a signature is checked against every secret, whichever matches', () => {
    const checked: string[] = [];
    const check = (want: string) => (s: string) => {
      checked.push(s);
      return s === want;
    };
    expect(anySecret(['a', 'b', 'c'], check('a'))).toBe(true);
    expect(checked).toEqual(['a', 'b', 'c']);
    expect(anySecret(['a', 'b'], check('z'))).toBe(false);
    expect(anySecret([], check('a'))).toBe(false);
  });
});

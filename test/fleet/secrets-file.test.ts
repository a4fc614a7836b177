import { existsSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/config/lock.js';
import { SecretsFileWriter, readSecretsFile } from '../../src/fleet/secrets-file.js';
import { anySecret } from '../../src/commands/webhooks/shared/receiver.js';
import { tempDir } from '../helpers.js';
import { turns } from '../fixtures/turns.js';

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

  it('writers of one file at once, each with its own queue as separate applies have, lose no entry', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const writers = Array.from({ length: 4 }, () => new SecretsFileWriter(path));
      await Promise.all(
        writers.flatMap((w, i) =>
          Array.from({ length: 12 }, (_, j) => w.record(entry(String(101 + i), String(j), `s${i}-${j}`))),
        ),
      );
      const recorded = readSecretsFile(path);
      expect(recorded).toHaveLength(48);
      expect(new Set(recorded.map((e) => e.secret)).size).toBe(48);
      expect(readdirSync(dir.dir)).toEqual(['secrets.json']);
    } finally {
      dir.remove();
    }
  });

  it('writes under the lock beside the file, reading the file afresh once it holds the lock', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const w = new SecretsFileWriter(path);
      await w.record(entry('101', '1', 'a'));
      // Another process holds the lock and is writing its entry meanwhile.
      const held = await acquireLock(w.lockFile, { waitMs: 0, staleMs: 60_000 });
      expect(held).toBeDefined();
      const recording = w.record(entry('102', '2', 'b'));
      await turns(20);
      expect(readSecretsFile(path).map((e) => e.secret)).toEqual(['a']);
      writeFileSync(
        path,
        JSON.stringify({ format_version: 1, endpoints: [entry('101', '1', 'a'), entry('103', '3', 'c')] }),
      );
      held!.release();
      await recording;
      expect(readSecretsFile(path).map((e) => e.secret)).toEqual(['a', 'c', 'b']);
      expect(existsSync(w.lockFile)).toBe(false);
    } finally {
      dir.remove();
    }
  });

  it('takes over a lock whose holder died and removes the temporary files killed writes left', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const w = new SecretsFileWriter(path);
      writeFileSync(w.lockFile, `999999999 ${hostname()} dead\n`);
      const left = `${path}.999999999.0a1b2c3d.tmp`;
      const young = `${path}.999999998.0a1b2c3d.tmp`;
      writeFileSync(left, '{"format_version": 1, "endpoints": []}');
      writeFileSync(young, '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(left, old, old);
      await w.record(entry('101', '1', 'a'));
      expect(readSecretsFile(path)).toHaveLength(1);
      // A temporary file younger than a stale lock may be a live writer's: it stays.
      expect(readdirSync(dir.dir).sort()).toEqual(['secrets.json', 'secrets.json.999999998.0a1b2c3d.tmp']);
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

  it('is read as every file is: a key given twice, text that is not UTF-8 and numbers out of range are refused, naming the file', () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      // JSON would keep the second secret silently; the receiver would then refuse every delivery signed with the first.
      writeFileSync(
        path,
        '{"format_version": 1, "endpoints": [\n  {"workspace_id": "101", "endpoint_id": "1", "secret": "a",\n   "secret": "b"}]}',
      );
      expect(() => readSecretsFile(path)).toThrow(
        `--secrets-file ${path} is not a valid document:\n  ${path}:3:4: endpoints[0]: the key "secret" is given twice`,
      );
      expect(() => new SecretsFileWriter(path).check()).toThrow('the key "secret" is given twice');
      writeFileSync(path, '{"format_version": 1, "endpoints": [{"endpoint_id": 1e400, "secret": "a"}]}');
      expect(() => readSecretsFile(path, '--secrets-file')).toThrow(
        `${path}:1:53: endpoints[0].endpoint_id: the number 1e400 is too large`,
      );
    } finally {
      dir.remove();
    }
  });

  it('a file with a secret that is not UTF-8 is refused, and left as it was, rather than rewritten with U+FFFD', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const before = Buffer.concat([
        Buffer.from('{"format_version": 1, "endpoints": [{"workspace_id": "101", "endpoint_id": "1", "secret": "s'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from('"}]}\n'),
      ]);
      writeFileSync(path, before);
      const w = new SecretsFileWriter(path);
      expect(() => w.check()).toThrow(`--secrets-file: ${path} is not UTF-8 text (the byte 0xE9 at line 1, column 93`);
      await expect(w.record(entry('102', '2', 'b'))).rejects.toThrow('is not UTF-8 text');
      expect(readFileSync(path).equals(before)).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it('a rewrite keeps the other entries as they were: every field, ids of any size, secrets of any characters', async () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json');
      const kept = {
        workspace_id: 101,
        endpoint_id: '9007199254740993',
        url: 'https://hooks.example.com/é',
        secret: 'sécret \u2028 𝄞 "quoted" \\',
        note: 'written by hand',
      };
      const bigId = '{"workspace_id": 102, "endpoint_id": 123456789012345678901, "secret": "x"}';
      writeFileSync(path, `{"format_version": 1, "endpoints": [${JSON.stringify(kept)}, ${bigId}], "comment": "mine"}`);
      await new SecretsFileWriter(path).record(entry('103', '3', 'c'));
      const text = readFileSync(path, 'utf8');
      const doc = JSON.parse(text);
      expect(doc.comment).toBe('mine');
      expect(doc.endpoints[0]).toEqual(kept);
      expect(text).toContain('"endpoint_id": 123456789012345678901');
      expect(readSecretsFile(path).map((e) => [e.workspace_id, e.endpoint_id, e.secret])).toEqual([
        ['101', '9007199254740993', kept.secret],
        ['102', '123456789012345678901', 'x'],
        ['103', '3', 'c'],
      ]);
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

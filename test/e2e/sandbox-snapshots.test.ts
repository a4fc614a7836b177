import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PASSWORD, USERNAME, tempDir } from '../helpers.js';
import { collected, startEdp } from './helpers.js';

const children: ChildProcess[] = [];

/** `edp sandbox --state FILE` of the built edp, and its address once it listens. */
async function started(file: string) {
  const child = startEdp(['sandbox', '--port', '0', '--state', file]);
  children.push(child);
  const ended = collected(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /^Sandbox listening on (http:\/\/\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`edp sandbox ended (exit ${code}) before listening: ${out}`)));
  });
  return { child, url, ended };
}

const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

describe('edp sandbox --state, built: reset and restore', () => {
  it('a reset and a restore are in the state file once answered (kill -9 right after); snapshots do not outlive the process', async () => {
    const dir = tempDir('edp-e2e-snapshots-');
    const file = join(dir.dir, 'state.json');
    const title = (state: { workspaces: Array<{ id: number; title: string }> }) =>
      state.workspaces.find((w) => w.id === 101)!.title;
    const rename = (url: string, to: string) =>
      fetch(`${url}/api/v3/workspaces/101`, {
        method: 'PUT',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ title: to }),
      });
    const call = (url: string, method: string, path: string) => fetch(`${url}/_sandbox${path}`, { method });
    const fromFile = () => JSON.parse(readFileSync(file, 'utf8'));
    try {
      const first = await started(file);
      const start = (await (await call(first.url, 'GET', '/state')).json()) as Parameters<typeof title>[0];
      expect((await rename(first.url, 'Renamed')).status).toBe(200);
      expect(title(fromFile())).toBe('Renamed');
      expect((await call(first.url, 'POST', '/reset')).status).toBe(200);
      first.child.kill('SIGKILL');
      await first.ended;
      expect(title(fromFile())).toBe(title(start));

      const second = await started(file);
      expect((await rename(second.url, 'In the snapshot')).status).toBe(200);
      expect((await call(second.url, 'PUT', '/snapshots/kept')).status).toBe(201);
      expect((await rename(second.url, 'After it')).status).toBe(200);
      expect((await call(second.url, 'POST', '/snapshots/kept/restore')).status).toBe(200);
      second.child.kill('SIGKILL');
      await second.ended;
      expect(title(fromFile())).toBe('In the snapshot');

      const third = await started(file);
      expect(await (await call(third.url, 'GET', '/snapshots')).json()).toEqual({ count: 0, results: [] });
      expect((await call(third.url, 'POST', '/snapshots/kept/restore')).status).toBe(404);
      third.child.kill('SIGTERM');
      await third.ended;
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      dir.remove();
    }
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/util/json.js';
import { PASSWORD, USERNAME, tempDir } from '../helpers.js';

// The real command line in a real process, so that it can be killed with SIGKILL: bundled from
// the sources here (dist/ may be older than them).
const dir = tempDir('edp-crash-');
const cliFile = join(dir.dir, 'edp.mjs');
beforeAll(async () => {
  await build({
    stdin: {
      contents: "import { run } from './src/cli.ts'; run();",
      resolveDir: resolve(import.meta.dirname, '../..'),
      loader: 'ts',
    },
    outfile: cliFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: {
      js: "import { createRequire as __edpCreateRequire } from 'node:module'; const require = __edpCreateRequire(import.meta.url);",
    },
    define: { __EDP_VERSION__: '"0.0.0-test"' },
    logLevel: 'error',
  });
}, 60_000);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  dir.remove();
});

async function startSandbox(
  stateFile: string,
): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [cliFile, 'sandbox', '--port', '0', '--state', stateFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = once(child, 'exit');
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.resume();
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on('data', (d: string) => {
      out += d;
      const m = /Sandbox listening on (\S+)/.exec(out);
      if (m) resolveUrl(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)));
  });
  return { child, url, exited };
}

const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

describe('edp sandbox --state after kill -9', () => {
  it('has every acknowledged write', async () => {
    const stateFile = join(dir.dir, 'state.json');
    const first = await startSandbox(stateFile);
    const acknowledged: Array<{ title: string; token: string }> = [];
    const KILL_AFTER = 60;
    let killed = false;
    // Workers keep writes in flight, so that the kill lands in the middle of them.
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const title = `Crash ${w}-${i}`;
        try {
          const created = await fetch(`${first.url}/api/v3/workspaces`, {
            method: 'POST',
            headers: { authorization: basic, 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          });
          if (created.status !== 201) throw new Error(`create: ${created.status}`);
          const { id } = parseJson(await created.text()) as { id: number };
          const issued = await fetch(`${first.url}/api/v3/token`, {
            method: 'POST',
            headers: { authorization: basic, 'content-type': 'application/json' },
            body: JSON.stringify({ workspace_id: id }),
          });
          if (issued.status !== 200) throw new Error(`token: ${issued.status}`);
          const { token } = (await issued.json()) as { token: string };
          // Both answers are in: acknowledged, even if another worker has just killed the process.
          acknowledged.push({ title, token });
          if (acknowledged.length === KILL_AFTER) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch (err) {
          if (killed) return;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    await first.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await startSandbox(stateFile);
    try {
      const list = await fetch(`${second.url}/api/v3/workspaces?page_size=1000`, { headers: { authorization: basic } });
      const titles = (parseJson(await list.text()) as { results: Array<{ title: string }> }).results.map(
        (w) => w.title,
      );
      expect(acknowledged.filter((a) => !titles.includes(a.title))).toEqual([]);
      for (const { token } of acknowledged) {
        const used = await fetch(`${second.url}/api/v3/extracts`, { headers: { authorization: `Bearer ${token}` } });
        expect(used.status).toBe(200);
      }
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});

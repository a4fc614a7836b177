import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { collected, operatorEnv, requireBuild, ROOT } from './helpers.js';
import { packedFilesOfBuild } from './packed-cache.js';

// --jq and completion in the package as shipped: the files package.json lists, without
// node_modules or the sources, run as a process and from a real shell. The tests, and the runs
// within each, run concurrently: they only read.

const work = tempDir('edp-e2e-jq-');
const shipped = join(work.dir, 'pkg');
const bin = join(work.dir, 'bin');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox();
  // Exactly the files npm packs (package.json's `files`, with what it leaves out).
  for (const { path } of packedFilesOfBuild().files) {
    mkdirSync(dirname(join(shipped, path)), { recursive: true });
    cpSync(join(ROOT, path), join(shipped, path));
  }
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'edp'), `#!/bin/sh\nexec "${process.execPath}" "${join(shipped, 'bin/edp.js')}" "$@"\n`);
  chmodSync(join(bin, 'edp'), 0o755);
});
afterAll(async () => {
  await sb.close();
  work.remove();
});

/** Runs a process without blocking: the sandbox answers from this process. */
function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...operatorEnv(sb.url, join(work.dir, 'config')), PATH: `${bin}:${process.env.PATH}`, HOME: work.dir };
  return collected(
    spawn(command, args, { env: env as NodeJS.ProcessEnv, cwd: work.dir, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

describe.concurrent('shipped edp', () => {
  it('--jq runs from dist alone', async ({ expect }) => {
    const [r, bad] = await Promise.all([
      run('edp', ['workspaces', 'list', '--jq', '.[] | select(.id == 101) | .id, .title']),
      run('edp', ['workspaces', 'list', '--jq', '.[']),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^101\n[^"\n]+\n$/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--jq: the expression does not compile');
  });

  it('completes in bash through the real edp: verbs, then workspace ids from the service', async ({ expect }) => {
    const script = (await run('edp', ['completion', 'bash'])).stdout;
    writeFileSync(join(work.dir, 'edp.bash'), script);
    const complete = async (line: string) => {
      const r = await run('bash', [
        '-c',
        `source ${join(work.dir, 'edp.bash')}; read -ra COMP_WORDS <<< "${line}"; [[ "${line}" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _edp; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.split('\n').filter(Boolean);
    };
    const [verbs, workspaces, shells] = await Promise.all([
      complete('edp config '),
      complete('edp datasources list -w '),
      complete('edp completion z'),
    ]);
    expect(verbs).toEqual(['get', 'set', 'unset', 'list']);
    expect(workspaces).toEqual(expect.arrayContaining(['101', '102']));
    expect(shells).toEqual(['zsh']);
  });
});

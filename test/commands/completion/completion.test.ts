import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers.js';

const files = tempDir('edp-completion-');
afterAll(() => files.remove());

describe('the completion scripts in their shells', () => {
  const bin = join(files.dir, 'bin');
  const answer = join(files.dir, 'answer');
  const asked = join(files.dir, 'asked');
  const work = join(files.dir, 'work');
  beforeAll(() => {
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(work, 'specs'), { recursive: true });
    writeFileSync(join(work, 'deploy.yaml'), '');
    writeFileSync(join(work, 'deploy.json'), '');
    writeFileSync(
      join(bin, 'edp'),
      `#!/bin/sh\nif [ "$1" = "__complete" ]; then shift; : > "${asked}"; for w in "$@"; do printf '[%s]\\n' "$w" >> "${asked}"; done; cat "${answer}"; fi\n`,
    );
    chmodSync(join(bin, 'edp'), 0o755);
  });
  const env = () => ({
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: files.dir,
    XDG_CONFIG_HOME: join(files.dir, 'xdg'),
    XDG_DATA_HOME: join(files.dir, 'xdg-data'),
  });
  const script = async (shell: string) => {
    const r = await cli(undefined, ['completion', shell]);
    expect(r.code).toBe(0);
    const path = join(files.dir, `edp.${shell}`);
    writeFileSync(path, r.stdout);
    return path;
  };
  const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
  const skipped = (shell: string) =>
    has(shell)
      ? ''
      : ` (skipped: ${shell} is not installed; .ci/run installs Debian's ${shell} where apt is available)`;
  const run = (shell: string, code: string) => {
    const r = spawnSync(shell, ['-c', code], { env: env(), cwd: work, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const words = () => readFileSync(asked, 'utf8');

  it('bash: passes the words up to the cursor and offers the answer, or file names', async () => {
    const path = await script('bash');
    writeFileSync(answer, 'get\tprint the value\nset\tstore a setting\n:nofiles\n');
    const out = run(
      'bash',
      `source ${path}; COMP_WORDS=(edp -w 101 config ""); COMP_CWORD=4; _edp; printf '<%s>' "\${COMPREPLY[@]}"`,
    );
    expect(out).toBe('<get><set>');
    expect(words()).toBe('[-w]\n[101]\n[config]\n[]\n');
    writeFileSync(answer, ':files\n');
    const filesOut = run(
      'bash',
      `source ${path}; COMP_WORDS=(edp recipes deploy --file dep); COMP_CWORD=4; _edp; printf '<%s>' "\${COMPREPLY[@]}" | tr '\\n' ' '`,
    );
    expect(filesOut.split(/(?=<)/).sort()).toEqual(['<deploy.json>', '<deploy.yaml>']);
    // after `--file=`, bash's current word is the `=`: every file name
    const afterEquals = run(
      'bash',
      `source ${path}; COMP_WORDS=(edp recipes deploy --file =); COMP_CWORD=4; _edp; printf '<%s>' "\${COMPREPLY[@]}"`,
    );
    expect(afterEquals.split(/(?=<)/).sort()).toEqual(['<deploy.json>', '<deploy.yaml>', '<specs>']);
    writeFileSync(answer, ':dirs\n');
    expect(
      run(
        'bash',
        `source ${path}; COMP_WORDS=(edp build --cache-dir ""); COMP_CWORD=3; _edp; printf '<%s>' "\${COMPREPLY[@]}"`,
      ),
    ).toBe('<specs>');
    writeFileSync(answer, ':nofiles\n');
    expect(
      run(
        'bash',
        `source ${path}; COMP_WORDS=(edp recipes deploy --concurrency ""); COMP_CWORD=4; _edp; echo "n=\${#COMPREPLY[@]}"`,
      ),
    ).toBe('n=0\n');
    // registered for edp
    expect(run('bash', `source ${path}; complete -p edp`)).toContain('complete -F _edp edp');
  });

  it.skipIf(!has('zsh'))(
    `zsh: #compdef makes the fpath install work; candidates and files reach the completion system${skipped('zsh')}`,
    async () => {
      const path = await script('zsh');
      expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('#compdef edp');
      // Installed as the README says: a file _edp in a folder of $fpath; compinit then maps edp to it.
      // The folders of other commands' completions (Completion/*) are left out of $fpath: compinit
      // reads all of their ~1,700 files, which took 1.7 s of this test, and edp's mapping needs none.
      const fdir = join(files.dir, 'zfunc');
      mkdirSync(fdir, { recursive: true });
      writeFileSync(join(fdir, '_edp'), readFileSync(path, 'utf8'));
      const installed = run(
        'zsh',
        `fpath=(${fdir} \${fpath:#*/Completion/*}); autoload -Uz compinit; compinit -u -d ${join(files.dir, 'zcompdump')}; print -r -- "$_comps[edp]"`,
      );
      expect(installed).toBe('_edp\n');
      // The function, called by the completion system, with its helpers recorded.
      writeFileSync(answer, 'get\tprint the value\nremote:1\n:nofiles\n');
      const stubs = `_describe() { local -a c; c=("\${(@P)4}"); print -rl -- "\${c[@]}"; }; _files() { print -r -- files "$@"; }; compdef() { :; }`;
      const out = run('zsh', `${stubs}; source ${path}; words=(edp -w 101 config ""); CURRENT=5; _edp`);
      expect(out).toBe('get:print the value\nremote\\:1\n');
      expect(words()).toBe('[-w]\n[101]\n[config]\n[]\n');
      writeFileSync(answer, ':files\n');
      expect(run('zsh', `${stubs}; source ${path}; words=(edp recipes deploy --file ""); CURRENT=5; _edp`)).toBe(
        'files\n',
      );
      writeFileSync(answer, ':dirs\n');
      expect(run('zsh', `${stubs}; source ${path}; words=(edp build --cache-dir ""); CURRENT=4; _edp`)).toBe(
        'files -/\n',
      );
    },
  );

  it.skipIf(!has('fish'))(
    `fish: complete -C offers the answer with descriptions, or file names${skipped('fish')}`,
    async () => {
      const path = await script('fish');
      writeFileSync(answer, 'recipes\tautomated recipes\nroles\tcustom roles\n:nofiles\n');
      const out = run('fish', `source ${path}; complete -C 'edp -w 101 r'`);
      expect(out).toBe('recipes\tautomated recipes\nroles\tcustom roles\n');
      expect(words()).toBe('[-w]\n[101]\n[r]\n');
      writeFileSync(answer, ':files\n');
      const filesOut = run('fish', `source ${path}; complete -C 'edp recipes deploy --file dep'`);
      expect(filesOut.split('\n').filter(Boolean).sort()).toEqual(['deploy.json', 'deploy.yaml']);
      const withFlag = run('fish', `source ${path}; complete -C 'edp recipes deploy --file=dep'`);
      expect(withFlag.split('\n').filter(Boolean).sort()).toEqual(['--file=deploy.json', '--file=deploy.yaml']);
      writeFileSync(answer, ':dirs\n');
      expect(run('fish', `source ${path}; complete -C 'edp build --cache-dir '`).split('\t')[0]).toBe('specs/');
      writeFileSync(answer, ':nofiles\n');
      expect(run('fish', `source ${path}; complete -C 'edp recipes deploy --concurrency '`)).toBe('');
    },
  );
});

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../helpers.js';
import { resetRecipes } from '../fixtures/recipes.js';

let sb: Sandbox;
const files = tempDir('edp-completion-');
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
  files.remove();
});

/** `edp __complete WORD…`: the candidates (values only) and the directive. */
async function ask(words: string[], env: Record<string, string | undefined> = {}, target: Sandbox | { url: string } | undefined = sb) {
  const r = await cli(target, ['__complete', ...words], { env });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  return { values: lines.slice(0, -1).map((l) => l.split('\t')[0]), lines: lines.slice(0, -1), directive: lines[lines.length - 1], stderr: r.stderr };
}

describe('edp __complete', () => {
  it('offers nouns at the top, verbs per noun, and only that noun\'s verbs', async () => {
    const top = await ask(['']);
    expect(top.values).toEqual(expect.arrayContaining(['workspaces', 'recipes', 'config', 'completion']));
    expect(top.values).not.toContain('__complete');
    expect(top.directive).toBe(':nofiles');
    expect((await ask(['rec'])).values).toEqual(['recipes']);
    const verbs = await ask(['config', '']);
    expect(verbs.values).toEqual(['get', 'set', 'unset', 'list']);
    expect(verbs.lines[0]).toMatch(/^get\tprint the value in effect/);
    // verbs of another noun are not offered
    expect((await ask(['workspaces', ''])).values).not.toContain('deploy');
  });

  it('offers the verb\'s own flags and the global ones, with descriptions', async () => {
    const r = await ask(['recipes', 'deploy', '--']);
    expect(r.values).toEqual(expect.arrayContaining(['--concurrency', '--file', '--all-workspaces', '--json', '--jq', '--profile']));
    expect(r.values).not.toContain('--offline');
    expect(r.lines).toContainEqual(expect.stringMatching(/^--concurrency\t/));
    const status = await ask(['auth', 'status', '--']);
    expect(status.values).toEqual(expect.arrayContaining(['--offline', '--all']));
    expect(status.values).not.toContain('--concurrency');
  });

  it('offers no flags or verbs where a value is due, and file names after a file flag', async () => {
    expect(await ask(['recipes', 'deploy', '--concurrency', ''])).toMatchObject({ values: [], directive: ':nofiles' });
    for (const words of [['recipes', 'deploy', '--file', ''], ['extracts', 'create', '--settings-file', ''], ['api', 'POST', '/api/v3/workspaces', '--input', '']]) {
      expect((await ask(words)).directive, words.join(' ')).toBe(':files');
    }
    // a value flag's value is skipped: what follows is the next word
    expect((await ask(['-w', '101', 'config', ''])).values).toEqual(['get', 'set', 'unset', 'list']);
  });

  it('offers the choices of an enumerated value', async () => {
    expect((await ask(['completion', ''])).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await ask(['config', 'set', 'po'])).values).toEqual(['poll_interval']);
  });

  it('offers workspace ids, data source names and recipe ids from the service', async () => {
    const ws = await ask(['datasources', 'list', '-w', '']);
    expect(ws.values).toEqual(expect.arrayContaining(['101', '102']));
    expect(ws.lines).toContainEqual(expect.stringMatching(/^101\t\S/));
    const ds = await ask(['-w', '101', 'connections', 'list', '--data-source', 'goo']);
    expect(ds.values).toContain('google_ads');
    expect(ds.values.every((v) => v.startsWith('goo'))).toBe(true);
    resetRecipes(sb);
    sb.store.state.agency.flags.recipe_pipeline = true;
    const created = await cli(sb, ['recipes', 'create', '-w', '101', '--template', '4001', '--title', 'Paid media', '--json']);
    expect(created.code).toBe(0);
    const recipes = await ask(['recipes', 'get', '-w', '101', '']);
    expect(recipes.values).toEqual(['9007199254740993']);
    expect(recipes.lines).toEqual(['9007199254740993\tPaid media']);
  });

  it('is silent and quick to give up when the service cannot answer', async () => {
    const noService = await ask(['datasources', 'list', '-w', ''], {}, { url: 'http://127.0.0.1:9' });
    expect(noService).toMatchObject({ values: [], directive: ':nofiles', stderr: '' });
    const noWorkspace = await ask(['connections', 'list', '--data-source', ''], { EDP_WORKSPACE: undefined });
    expect(noWorkspace).toMatchObject({ values: [], stderr: '' });
  });
});

/**
 * The scripts run in the real shells against a stand-in `edp` on PATH that records the words
 * it was given and answers what the test put in a file: this checks each script's side of the
 * protocol; the tests above check edp's side.
 */
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
  const env = () => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: files.dir, XDG_CONFIG_HOME: join(files.dir, 'xdg'), XDG_DATA_HOME: join(files.dir, 'xdg-data') });
  const script = async (shell: string) => {
    const r = await cli(undefined, ['completion', shell]);
    expect(r.code).toBe(0);
    const path = join(files.dir, `edp.${shell}`);
    writeFileSync(path, r.stdout);
    return path;
  };
  const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
  const run = (shell: string, code: string) => {
    const r = spawnSync(shell, ['-c', code], { env: env(), cwd: work, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const words = () => readFileSync(asked, 'utf8');

  it('bash: passes the words up to the cursor and offers the answer, or file names', async () => {
    const path = await script('bash');
    writeFileSync(answer, 'get\tprint the value\nset\tstore a setting\n:nofiles\n');
    const out = run('bash', `source ${path}; COMP_WORDS=(edp -w 101 config ""); COMP_CWORD=4; _edp; printf '<%s>' "\${COMPREPLY[@]}"`);
    expect(out).toBe('<get><set>');
    expect(words()).toBe('[-w]\n[101]\n[config]\n[]\n');
    writeFileSync(answer, ':files\n');
    const filesOut = run('bash', `source ${path}; COMP_WORDS=(edp recipes deploy --file dep); COMP_CWORD=4; _edp; printf '<%s>' "\${COMPREPLY[@]}" | tr '\\n' ' '`);
    expect(filesOut.split(/(?=<)/).sort()).toEqual(['<deploy.json>', '<deploy.yaml>']);
    writeFileSync(answer, ':nofiles\n');
    expect(run('bash', `source ${path}; COMP_WORDS=(edp recipes deploy --concurrency ""); COMP_CWORD=4; _edp; echo "n=\${#COMPREPLY[@]}"`)).toBe('n=0\n');
    // registered for edp
    expect(run('bash', `source ${path}; complete -p edp`)).toContain('complete -F _edp edp');
  });

  it.skipIf(!has('zsh'))('zsh: #compdef makes the fpath install work; candidates and files reach the completion system', async () => {
    const path = await script('zsh');
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('#compdef edp');
    // Installed as the README says: a file _edp in a folder of $fpath; compinit then maps edp to it.
    const fdir = join(files.dir, 'zfunc');
    mkdirSync(fdir, { recursive: true });
    writeFileSync(join(fdir, '_edp'), readFileSync(path, 'utf8'));
    const installed = run('zsh', `fpath=(${fdir} $fpath); autoload -Uz compinit; compinit -u -d ${join(files.dir, 'zcompdump')}; print -r -- "$_comps[edp]"`);
    expect(installed).toBe('_edp\n');
    // The function, called by the completion system, with its helpers recorded.
    writeFileSync(answer, 'get\tprint the value\nremote:1\n:nofiles\n');
    const stubs = `_describe() { local -a c; c=("\${(@P)4}"); print -rl -- "\${c[@]}"; }; _files() { print files; }; compdef() { :; }`;
    const out = run('zsh', `${stubs}; source ${path}; words=(edp -w 101 config ""); CURRENT=5; _edp`);
    expect(out).toBe('get:print the value\nremote\\:1\n');
    expect(words()).toBe('[-w]\n[101]\n[config]\n[]\n');
    writeFileSync(answer, ':files\n');
    expect(run('zsh', `${stubs}; source ${path}; words=(edp recipes deploy --file ""); CURRENT=5; _edp`)).toBe('files\n');
  });

  it.skipIf(!has('fish'))('fish: complete -C offers the answer with descriptions, or file names', async () => {
    const path = await script('fish');
    writeFileSync(answer, 'recipes\tautomated recipes\nroles\tcustom roles\n:nofiles\n');
    const out = run('fish', `source ${path}; complete -C 'edp -w 101 r'`);
    expect(out).toBe('recipes\tautomated recipes\nroles\tcustom roles\n');
    expect(words()).toBe('[-w]\n[101]\n[r]\n');
    writeFileSync(answer, ':files\n');
    const filesOut = run('fish', `source ${path}; complete -C 'edp recipes deploy --file dep'`);
    expect(filesOut.split('\n').filter(Boolean).sort()).toEqual(['deploy.json', 'deploy.yaml']);
    writeFileSync(answer, ':nofiles\n');
    expect(run('fish', `source ${path}; complete -C 'edp recipes deploy --concurrency '`)).toBe('');
  });
});

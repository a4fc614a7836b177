import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { BIN, collected, requireBuild } from './helpers.js';
import { terminalUnavailable } from './terminal.js';

// The completion scripts of the built edp in the shells themselves: bash and zsh at a
// pseudo-terminal (util-linux `script`), where a Tab goes through readline or zle and the
// shell's own completion system, as a person types it; fish through `complete -C`, its
// completion engine on a command line. In a folder holding a-plan.json, fleet.yaml and a
// folder specs/, the file names must come where a verb takes a file, and verbs and flags as
// before.

const files = tempDir('edp-e2e-completion-');
const bin = join(files.dir, 'bin');
const work = join(files.dir, 'work');
const PROMPT = 'edp-test$ ';

/** Why `shell` cannot be tested here, or undefined when it can. */
function missing(shell: string): string | undefined {
  if (spawnSync(shell, ['-c', 'exit 0']).status === 0) return undefined;
  return `${shell} is not installed (.ci/run installs Debian's ${shell} where apt is available)`;
}
const noTerminal = terminalUnavailable();
const skipBash = missing('bash') ?? noTerminal;
const skipZsh = missing('zsh') ?? noTerminal;
const skipFish = missing('fish');

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: `${bin}:${process.env.PATH}`,
  HOME: files.dir,
  XDG_CONFIG_HOME: join(files.dir, 'xdg-config'),
  XDG_DATA_HOME: join(files.dir, 'xdg-data'),
  EDP_CONFIG_DIR: join(files.dir, 'edp-config'),
  TERM: 'dumb',
  ...extra,
});

beforeAll(() => {
  requireBuild();
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(work, 'specs'), { recursive: true });
  writeFileSync(join(work, 'a-plan.json'), '{}\n');
  writeFileSync(join(work, 'fleet.yaml'), 'workspaces: [101]\n');
  writeFileSync(join(bin, 'edp'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'edp'), 0o755);
});
afterAll(() => files.remove());

/** `edp completion SHELL`, from the built edp, saved as a file. */
async function script(shell: string): Promise<string> {
  const r = await collected(spawn('edp', ['completion', shell], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] }));
  expect(r.code, r.stderr).toBe(0);
  const path = join(files.dir, `edp.${shell}`);
  writeFileSync(path, r.stdout);
  return path;
}

let runs = 0;

/**
 * Types `line` and a Tab into an interactive `shell` at a pseudo-terminal, in the folder with
 * the files, and returns the matches its completion offered (its rc file writes them to
 * $EDP_MATCHES). Keys are typed once the prompt shows (the line editor reads the terminal
 * then); the line is then erased (Ctrl-U), a marker echoed, and the shell left.
 */
async function tab(shell: string, line: string): Promise<string[]> {
  const matches = join(files.dir, `matches-${++runs}`);
  const child = spawn('script', ['-qfec', shell, '/dev/null'], {
    env: env({ EDP_MATCHES: matches, ZDOTDIR: join(files.dir, 'zdot') }),
    cwd: work,
    stdio: ['pipe', 'pipe', 'pipe'],
    // a shell that never shows its prompt or the marker is stopped, and the test fails
    timeout: 30_000,
    killSignal: 'SIGKILL',
  });
  let screen = '';
  let typed = false;
  let left = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
    if (!typed && screen.includes(PROMPT)) {
      typed = true;
      child.stdin.write(`${line}\t\x15echo DO""NE\n`);
    } else if (typed && !left && /^DONE\r?$/m.test(screen)) {
      left = true;
      child.stdin.end('exit\n');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(left, `${shell}: the marker never came back; the screen:\n${screen}`).toBe(true);
  expect(code).toBe(0);
  return existsSync(matches) ? readFileSync(matches, 'utf8').split('\n').filter(Boolean).sort() : [];
}

const FILES = ['a-plan.json', 'fleet.yaml', 'specs'];

describe('shell completion offers file names where a verb takes a file', () => {
  it.skipIf(skipBash !== undefined)(`bash, at a terminal${skipBash ? ` (skipped: ${skipBash})` : ''}`, async () => {
    const path = await script('bash');
    const rc = join(files.dir, 'bashrc');
    writeFileSync(
      rc,
      [
        `PS1='${PROMPT}'`,
        `source ${path}`,
        // what _edp offers, also written down; the script registered _edp for edp
        `_edp_recorded() { _edp "$@"; local status=$?; ((\${#COMPREPLY[@]})) && printf '%s\\n' "\${COMPREPLY[@]}" >> "$EDP_MATCHES"; return $status; }`,
        `[[ "$(complete -p edp)" == "complete -F _edp edp" ]] && complete -F _edp_recorded edp`,
        '',
      ].join('\n'),
    );
    const bash = `bash --noprofile --rcfile ${rc} -i`;
    expect(await tab(bash, 'edp apply a-')).toEqual(['a-plan.json']);
    expect(await tab(bash, 'edp plan -f fl')).toEqual(['fleet.yaml']);
    expect(await tab(bash, 'edp plan --out ')).toEqual(FILES);
    // readline splits --out=… at the =
    expect(await tab(bash, 'edp plan --out=a')).toEqual(['a-plan.json']);
    expect(await tab(bash, 'edp plan --out=')).toEqual(FILES);
    expect(await tab(bash, 'edp recipes deploy --file ')).toEqual(FILES);
    // verbs, flags and values as before, and no file names where none are due
    expect(await tab(bash, 'edp con')).toEqual(['config', 'connections']);
    expect(await tab(bash, 'edp plan --o')).toEqual(['--out']);
    expect(await tab(bash, 'edp plan --concurrency ')).toEqual([]);
    expect(await tab(bash, 'edp config ')).toEqual(['get', 'list', 'set', 'unset']);
  });

  it.skipIf(skipZsh !== undefined)(`zsh, at a terminal${skipZsh ? ` (skipped: ${skipZsh})` : ''}`, async () => {
    const path = await script('zsh');
    // Installed as the guide says: the script as _edp in a folder on $fpath, then compinit.
    const fdir = join(files.dir, 'zfunc');
    mkdirSync(fdir, { recursive: true });
    writeFileSync(join(fdir, '_edp'), readFileSync(path, 'utf8'));
    mkdirSync(join(files.dir, 'zdot'), { recursive: true });
    writeFileSync(
      join(files.dir, 'zdot', '.zshrc'),
      [
        `PROMPT='${PROMPT}'`,
        `fpath=(${fdir} $fpath)`,
        `autoload -Uz compinit && compinit -u -d ${join(files.dir, 'zcompdump')}`,
        // every match the completion system is given is also written down (not the calls that only ask)
        'compadd() {',
        '  if (( ${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi',
        '  local -a found',
        '  builtin compadd -O found "$@"',
        '  (( ${#found} )) && print -rl -- "${found[@]}" >> "$EDP_MATCHES"',
        '  builtin compadd "$@"',
        '}',
        '',
      ].join('\n'),
    );
    const zsh = 'zsh -i';
    expect(await tab(zsh, 'edp apply a-')).toEqual(['a-plan.json']);
    expect(await tab(zsh, 'edp plan -f fl')).toEqual(['fleet.yaml']);
    expect(await tab(zsh, 'edp plan --out ')).toEqual(FILES);
    expect(await tab(zsh, 'edp plan --out=a')).toEqual(['a-plan.json']);
    expect(await tab(zsh, 'edp recipes deploy --file ')).toEqual(FILES);
    expect(await tab(zsh, 'edp con')).toEqual(['config', 'connections']);
    expect(await tab(zsh, 'edp plan --o')).toEqual(['--out']);
    expect(await tab(zsh, 'edp plan --concurrency ')).toEqual([]);
    expect(await tab(zsh, 'edp config ')).toEqual(['get', 'list', 'set', 'unset']);
  });

  it.skipIf(skipFish !== undefined)(`fish${skipFish ? ` (skipped: ${skipFish})` : ''}`, async () => {
    const path = await script('fish');
    const complete = async (line: string) => {
      const r = await collected(
        spawn('fish', ['--no-config', '-c', `source ${path}; complete -C '${line}'`], {
          env: env(),
          cwd: work,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!)
        .sort();
    };
    expect(await complete('edp apply a-')).toEqual(['a-plan.json']);
    expect(await complete('edp plan -f fl')).toEqual(['fleet.yaml']);
    expect(await complete('edp plan --out ')).toEqual(['a-plan.json', 'fleet.yaml', 'specs/']);
    expect(await complete('edp plan --out=a')).toEqual(['--out=a-plan.json']);
    expect(await complete('edp recipes deploy --file ')).toEqual(['a-plan.json', 'fleet.yaml', 'specs/']);
    expect(await complete('edp con')).toEqual(['config', 'connections']);
    expect(await complete('edp plan --o')).toEqual(['--out']);
    expect(await complete('edp plan --concurrency ')).toEqual([]);
    expect(await complete('edp config ')).toEqual(['get', 'list', 'set', 'unset']);
  });
});

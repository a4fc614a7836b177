import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { BIN, collected, requireBuild } from '../e2e/helpers.js';
import { terminalUnavailable } from '../e2e/terminal.js';

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

let sessions = 0;

/**
 * Types each of `lines` and a Tab into one interactive `shell` at a pseudo-terminal, in the
 * folder with the files, and returns the matches its completion offered for each line (its rc
 * file writes them to $EDP_MATCHES). Keys are typed once the prompt shows (the line editor reads
 * the terminal then); each line is then erased (Ctrl-U) and a marker of its own echoed, and the
 * next line is typed once the marker and the next prompt show: the Tab's completion ran before
 * the shell read the marker's command, so the file then holds that line's matches, and is read
 * and removed. After the last line the shell is left. One shell for all the lines: a start of an
 * interactive shell (zsh's compinit above all) costs more than a completion, and each line
 * starts from an empty command line, as a new shell's would.
 */
async function tabs(shell: string, lines: string[]): Promise<string[][]> {
  const matches = join(files.dir, `matches-${++sessions}`);
  const child = spawn('script', ['-qfec', shell, '/dev/null'], {
    env: env({ EDP_MATCHES: matches, ZDOTDIR: join(files.dir, 'zdot') }),
    cwd: work,
    stdio: ['pipe', 'pipe', 'pipe'],
    // a shell that never shows its prompt or a marker is stopped, and the test fails
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  const found: string[][] = [];
  let screen = '';
  /** where the screen of the line being completed starts */
  let from = 0;
  let typed = 0;
  const typeNext = () => {
    from = screen.length;
    if (typed === lines.length) child.stdin.end('exit\n');
    else child.stdin.write(`${lines[typed]}\t\x15echo DO""NE-${typed++}\n`);
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
    if (found.length < typed) {
      const marker = new RegExp(`^DONE-${found.length}\\r?$`, 'm').exec(screen.slice(from));
      if (!marker) return;
      found.push(existsSync(matches) ? readFileSync(matches, 'utf8').split('\n').filter(Boolean).sort() : []);
      rmSync(matches, { force: true });
      from += marker.index + marker[0].length;
    }
    // The next keys wait for the prompt: until the line editor reads the terminal, the terminal's
    // own line discipline would take the Ctrl-U as its erase of the line, the Tab with it.
    if (found.length === typed && !child.stdin.writableEnded && screen.slice(from).includes(PROMPT)) typeNext();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(found.length, `${shell}: the marker of line ${found.length + 1} never came back; the screen:\n${screen}`).toBe(
    lines.length,
  );
  expect(code).toBe(0);
  return found;
}

/** Each line with the matches expected of it, checked in one shell (`tabs`). */
async function expectTabs(shell: string, cases: Array<[line: string, matches: string[]]>): Promise<void> {
  const got = await tabs(
    shell,
    cases.map(([line]) => line),
  );
  cases.forEach(([line, matches], i) => expect(got[i], `${shell}: ${line}<Tab>`).toEqual(matches));
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
    await expectTabs(`bash --noprofile --rcfile ${rc} -i`, [
      ['edp apply a-', ['a-plan.json']],
      ['edp plan -f fl', ['fleet.yaml']],
      ['edp plan --out ', FILES],
      // readline splits --out=… at the =
      ['edp plan --out=a', ['a-plan.json']],
      ['edp plan --out=', FILES],
      ['edp recipes deploy --file ', FILES],
      // verbs, flags and values as before, and no file names where none are due
      ['edp con', ['config', 'connections']],
      ['edp plan --o', ['--out']],
      ['edp plan --concurrency ', []],
      ['edp config ', ['get', 'list', 'set', 'unset']],
    ]);
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
    await expectTabs('zsh -i', [
      ['edp apply a-', ['a-plan.json']],
      ['edp plan -f fl', ['fleet.yaml']],
      ['edp plan --out ', FILES],
      ['edp plan --out=a', ['a-plan.json']],
      ['edp recipes deploy --file ', FILES],
      ['edp con', ['config', 'connections']],
      ['edp plan --o', ['--out']],
      ['edp plan --concurrency ', []],
      ['edp config ', ['get', 'list', 'set', 'unset']],
    ]);
  });

  it.skipIf(skipFish !== undefined)(`fish${skipFish ? ` (skipped: ${skipFish})` : ''}`, async () => {
    const path = await script('fish');
    // One fish for every line (a start of fish costs more than a completion): each line's
    // candidates, then a marker line that no candidate is.
    const cases: Array<[line: string, matches: string[]]> = [
      ['edp apply a-', ['a-plan.json']],
      ['edp plan -f fl', ['fleet.yaml']],
      ['edp plan --out ', ['a-plan.json', 'fleet.yaml', 'specs/']],
      ['edp plan --out=a', ['--out=a-plan.json']],
      ['edp recipes deploy --file ', ['a-plan.json', 'fleet.yaml', 'specs/']],
      ['edp con', ['config', 'connections']],
      ['edp plan --o', ['--out']],
      ['edp plan --concurrency ', []],
      ['edp config ', ['get', 'list', 'set', 'unset']],
    ];
    const MARKER = 'EDP-TEST-DONE';
    const commands = cases.map(([line]) => `complete -C '${line}'; echo ${MARKER}`);
    const r = await collected(
      spawn('fish', ['--no-config', '-c', [`source ${path}`, ...commands].join('; ')], {
        env: env(),
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    const outputs = r.stdout.split(`${MARKER}\n`);
    expect(outputs.at(-1), r.stdout).toBe('');
    expect(outputs, r.stdout).toHaveLength(cases.length + 1);
    cases.forEach(([line, matches], i) => {
      const got = outputs[i]!.split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!)
        .sort();
      expect(got, `fish: ${line}<Tab>`).toEqual(matches);
    });
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, freshConfig, http, PASSWORD, tempDir, USERNAME, useSandbox } from '../helpers.js';

// Settings are resolved once (src/config/resolve.ts): every verb takes a setting the same way
// from each of its sources. This walks every verb whose examples act in a workspace, runs the
// example with the workspace given by -w, by EDP_WORKSPACE and by the profile's default, and
// compares what each run sent where (the sandbox's request journal). A verb that read -w itself,
// or took the variable in another form, would act in another workspace for one of them.

const t = useSandbox({ buildSeconds: 0 });

/** The workspace the runs name; the examples name 101, so a verb that ignored the setting would show. */
const WS = '103';

interface Verb {
  words: string[];
  /** the example's arguments, without its -w */
  argv: string[];
  /** takes -w IDS or --all-workspaces: the profile's default does not choose its workspaces */
  spans: boolean;
}

/** The shell words of an example line: quotes removed. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Every verb of the manual whose examples name a workspace with -w, with its first such example. */
function verbsActingInAWorkspace(): Verb[] {
  const verbs: Verb[] = [];
  for (const file of readdirSync('docs/commands').sort()) {
    const text = readFileSync(join('docs/commands', file), 'utf8');
    // A long example goes on on the next line after a `\`.
    const examples = (/## Examples\n\n```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? '').replace(/\\\n\s*/g, ' ');
    const words = file.replace(/\.md$/, '').split('-').slice(1);
    const line = examples
      .split('\n')
      .map((l) => l.replace(/\s+#\s.*$/, '').trim())
      .find((l) => /\s-w \d+(\s|$)/.test(l) && l.startsWith('edp '));
    if (!line) continue;
    const argv = shellWords(line).slice(1);
    const at = argv.indexOf('-w');
    argv.splice(at, 2);
    // A verb with a bulk form (`--failed`: extracts run, recipes build, …) spans workspaces only when
    // given several, or --all-workspaces; its example's one-item form is a single-workspace verb.
    verbs.push({ words, argv, spans: text.includes('`--all-workspaces`') && !text.includes('`--failed`') });
  }
  return verbs;
}

/** The workspaces the sandbox saw requests for since the journal was cleared. */
async function workspacesSeen(): Promise<string[]> {
  const journal = (await http(t.sb, 'GET', '/_sandbox/requests')).body.results as Array<{ workspace_id: unknown }>;
  return [
    ...new Set(
      journal
        .map((r) => r.workspace_id)
        .filter((w) => w !== null && w !== undefined)
        .map(String),
    ),
  ];
}

/** The config folder of the runs by flag and variable (see forgetTokens). */
const shared = freshConfig();

/**
 * Drops the cached tokens of any workspace but WS. The journal names the workspace of every
 * request by its token, so a run in WS on WS's cached token shows as such; a run that acted
 * elsewhere, finding no token for it, asks for one, which shows too. Keeping WS's token spares
 * each run a token's issuance and its locked write of the config file (half of this file's time).
 */
function forgetTokens(file: string): void {
  if (!existsSync(file)) return;
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const tokens = Object.entries((config.tokens ?? {}) as Record<string, { workspace_id: unknown }>);
  const others = tokens.filter(([, t]) => String(t.workspace_id) !== WS);
  if (others.length === 0) return;
  config.tokens = Object.fromEntries(tokens.filter(([, t]) => String(t.workspace_id) === WS));
  writeFileSync(file, JSON.stringify(config));
}

async function run(argv: string[], env: Record<string, string | undefined>) {
  await http(t.sb, 'DELETE', '/_sandbox/requests');
  const config = env.EDP_CONFIG_DIR ? join(env.EDP_CONFIG_DIR, 'config.json') : shared.file;
  forgetTokens(config);
  const r = await cli(t.sb, argv, {
    env: { ...shared.env, EDP_WORKSPACE: undefined, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, ...env },
  });
  return { code: r.code, stderr: r.stderr, seen: await workspacesSeen() };
}

describe('every verb takes its workspace the same way from -w, EDP_WORKSPACE and the profile', () => {
  const verbs = verbsActingInAWorkspace();

  it('finds the verbs to walk', () => {
    // The manual's examples name a workspace for most verbs; a change that lost them would make this test prove little.
    expect(verbs.length).toBeGreaterThan(50);
  });

  // A profile whose default workspace is WS, with the same credentials, in a folder of its own.
  const profile = freshConfig();
  const stored = { ...profile.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
  beforeAll(async () => {
    expect((await cli(t.sb, ['config', 'set', 'workspace', WS], { env: stored })).code).toBe(0);
  });

  it.each(verbs.map((v) => [v.words.join(' '), v] as const))('%s', async (_name, verb) => {
    const byFlag = await run([...verb.argv, '-w', WS], {});
    const byEnv = await run(verb.argv, { EDP_WORKSPACE: WS });
    const byProfile = await run(verb.argv, stored);

    // Acting in a workspace at all, it acts in the one named, whichever way it was named.
    for (const r of [byFlag, byEnv])
      expect(
        r.seen.filter((w) => w !== WS),
        r.stderr,
      ).toEqual([]);
    expect(byEnv.seen, byEnv.stderr).toEqual(byFlag.seen);
    expect(byEnv.code === 2, byEnv.stderr).toBe(byFlag.code === 2);
    if (verb.spans) {
      // The profile's default is for single-workspace verbs: nothing is sent, and the refusal says how to name it.
      expect(byProfile.code, byProfile.stderr).toBe(2);
      expect(byProfile.seen).toEqual([]);
      expect(byProfile.stderr).toContain(`-w ${WS} names it here`);
    } else {
      expect(byProfile.seen, byProfile.stderr).toEqual(byFlag.seen);
      expect(byProfile.code === 2, byProfile.stderr).toBe(byFlag.code === 2);
    }
  });
});

describe('a fleet file is narrowed by -w and EDP_WORKSPACE alike, never by the profile', () => {
  it('plan reads the same workspaces for -w 101 and EDP_WORKSPACE=101, and all of the file with a default', async () => {
    const dir = tempDir();
    const file = join(dir.dir, 'fleet.yaml');
    writeFileSync(file, 'workspaces: [101, 102]\nroles: []\n');
    const profile = freshConfig();
    const stored = { ...profile.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    expect((await cli(t.sb, ['config', 'set', 'workspace', '101'], { env: stored })).code).toBe(0);
    const plans = {
      flag: await cli(t.sb, ['plan', '-f', file, '--json', '-w', '101'], { env: { EDP_WORKSPACE: undefined } }),
      env: await cli(t.sb, ['plan', '-f', file, '--json'], { env: { EDP_WORKSPACE: '101' } }),
      profile: await cli(t.sb, ['plan', '-f', file, '--json'], { env: { ...stored, EDP_WORKSPACE: undefined } }),
    };
    const read = (r: { code: number; stderr: string; json(): any }) => {
      expect(r.code, r.stderr).toBe(0);
      return (r.json().workspaces as Array<{ workspace_id: unknown }>).map((w) => String(w.workspace_id));
    };
    expect(read(plans.flag)).toEqual(['101']);
    expect(read(plans.env)).toEqual(['101']);
    expect(read(plans.profile)).toEqual(['101', '102']);
    dir.remove();
  });

  it('recipes status takes a comma list from EDP_WORKSPACE as from -w', async () => {
    const byEnv = await cli(t.sb, ['recipes', 'status', '--json'], { env: { EDP_WORKSPACE: '101,102' } });
    const byFlag = await cli(t.sb, ['recipes', 'status', '--json', '-w', '101,102'], {
      env: { EDP_WORKSPACE: undefined },
    });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(byEnv.stdout).toBe(byFlag.stdout);
  });
});

/** A fleet file of one role, for apply. */
function fleetFile(): string {
  const dir = tempDir();
  const file = join(dir.dir, 'fleet.yaml');
  writeFileSync(file, 'workspaces: [101]\nroles: []\n');
  return file;
}

describe('the wait settings are checked the same way by every verb that waits', () => {
  /** Every verb taking --wait-timeout, with the flag that turns its wait on, if it waits on request. */
  const waiting: Array<[string, string[], string | undefined]> = [
    ['recipes poll', ['recipes', 'poll', '9007199254740993'], undefined],
    ['recipes build', ['recipes', 'build', '9007199254740993'], '--wait'],
    ['recipes resetup', ['recipes', 'resetup', '9007199254740993'], '--wait'],
    ['recipes status', ['recipes', 'status'], '--watch'],
    [
      'recipes deploy',
      ['recipes', 'deploy', '--template', '4001', '--data-source', 'google_ads', '--accounts', 'all-active'],
      undefined,
    ],
    ['extracts run', ['extracts', 'run', '1'], '--wait'],
    ['loads run', ['loads', 'run', '1'], '--wait'],
    ['apply', ['apply', '-f', fleetFile(), '--yes'], undefined],
  ];

  it('lists every verb that takes --wait-timeout', async () => {
    const pages = readdirSync('docs/commands').filter((f) =>
      readFileSync(join('docs/commands', f), 'utf8').includes('`--wait-timeout <duration>`'),
    );
    expect(pages.map((f) => f.replace(/^edp-|\.md$/g, '').replace(/-/g, ' ')).sort()).toEqual(
      waiting.map(([name]) => name).sort(),
    );
  });

  it.each(waiting)('%s: a deadline of 0 is refused, and timing flags without the wait', async (_name, argv, gate) => {
    await http(t.sb, 'DELETE', '/_sandbox/requests');
    const zero = await cli(t.sb, [...argv, ...(gate ? [gate] : []), '--wait-timeout', '0s', '-w', '101']);
    expect(zero.code, zero.stderr).toBe(2);
    expect(zero.stderr).toContain('--wait-timeout must be longer than 0');
    const badPause = await cli(t.sb, [...argv, ...(gate ? [gate] : []), '-w', '101'], {
      env: { EDP_POLL_INTERVAL: '0s' },
    });
    expect(badPause.code, badPause.stderr).toBe(2);
    expect(badPause.stderr).toContain('EDP_POLL_INTERVAL must be longer than 0');
    if (gate) {
      const ungated = await cli(t.sb, [...argv, '--wait-timeout', '5m', '-w', '101']);
      expect(ungated.code, ungated.stderr).toBe(2);
      expect(ungated.stderr).toContain(`--wait-timeout works with ${gate}`);
    }
    expect((await http(t.sb, 'GET', '/_sandbox/requests')).body.results).toEqual([]);
  });
});

describe('no verb reads a setting itself', () => {
  /** Every TypeScript file under a folder. */
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );

  it('only the resolver reads the flags, variables and profile values of the settings', () => {
    // The settings' global flags, their variables and the credentials' variables (config/resolve.ts).
    const reads =
      /\bflags\.(workspace|baseUrl|profile|timeout)\b|\benv(\.|\[')(EDP_(WORKSPACE|TOKEN|BASE_URL|PROFILE|POLL_INTERVAL|CONCURRENCY|USERNAME|PASSWORD|SESSION_ID))\b|\bprofile\(\)\.(workspace|base_url|concurrency|poll_interval)\b/;
    const found = sources('src')
      .filter((f) => !f.startsWith(join('src', 'sandbox')) && f !== join('src', 'config', 'resolve.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => [`${f}:${i + 1}`, line] as const)
          .filter(([, line]) => reads.test(line) && !/^\s*(\*|\/\/)/.test(line))
          .map(([at, line]) => `${at}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});

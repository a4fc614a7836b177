import { describe, expect, it } from 'vitest';
import { cli, freshConfig, PASSWORD, tokenFor, USERNAME, useSandbox } from '../helpers.js';
import { configuration, configure, createRecipe } from '../fixtures/recipes.js';

// Every command the tool suggests works when pasted: it names the workspace unless that is the
// profile's default, and the port a local receiver must listen on.

const t = useSandbox({ buildSeconds: 0 });

/** An operator whose profile's default workspace is 101. */
async function withDefault101() {
  const config = freshConfig();
  const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_WORKSPACE: undefined };
  expect((await cli(t.sb, ['config', 'set', 'workspace', '101'], { env })).code).toBe(0);
  return (...argv: string[]) => cli(t.sb, argv, { env });
}

describe('hints', () => {
  it('recipes build in another workspace than the default suggests a poll with -w', async () => {
    const edp = await withDefault101();
    const token = await tokenFor(t.sb, 103);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 103, { google_ads: 'all' }));
    const r = await edp('recipes', 'build', id, '-w', '103');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`follow it with \`edp recipes poll ${id} -w 103\``);

    // In the default workspace, the hint needs no -w.
    const token101 = await tokenFor(t.sb, 101);
    const id101 = await createRecipe(t.sb, token101, 4001);
    await configure(t.sb, token101, id101, configuration(t.sb, 101, { google_ads: 'all' }));
    const plain = await edp('recipes', 'build', id101);
    expect(plain.stderr).toContain(`follow it with \`edp recipes poll ${id101}\``);
  });

  it('webhooks create -w 103 with a local url suggests listen on its port, with the secret, and verify with -w', async () => {
    const edp = await withDefault101();
    const r = await edp(
      'webhooks',
      'create',
      '--url',
      'http://127.0.0.1:9123/hook',
      '--events',
      'load_completed',
      '-w',
      '103',
      '--json',
    );
    expect(r.code).toBe(0);
    const { id, secret } = r.json();
    const person = await edp(
      'webhooks',
      'create',
      '--url',
      'http://localhost:9124/other',
      '--events',
      'load_completed',
      '-w',
      '103',
    );
    expect(person.code).toBe(0);
    expect(person.stderr).toMatch(/EDP_WEBHOOK_SECRET=[0-9a-f]{64} edp webhooks listen --port 9124\n/);
    expect(person.stderr).toMatch(/edp webhooks verify \d+ -w 103/);
    expect(String(id)).toMatch(/^\d+$/);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--profile chosen by flag is carried too', async () => {
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_WORKSPACE: undefined };
    const token = await tokenFor(t.sb, 102);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 102, { google_ads: 'all' }));
    const r = await cli(t.sb, ['--profile', 'ops', 'recipes', 'build', id, '-w', '102'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`\`edp recipes poll ${id} --profile ops -w 102\``);
  });
});

describe('hints name the profile a run used', () => {
  it('no credentials in a profile chosen by --profile or EDP_PROFILE: the login command names it', async () => {
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
    const byFlag = await cli(t.sb, ['--profile', 'prod', 'workspaces', 'list'], { env });
    expect(byFlag.code).toBe(3);
    expect(byFlag.stderr).toContain('no agency credentials in profile "prod": run `edp auth login --profile prod`');
    const byEnv = await cli(t.sb, ['workspaces', 'list'], { env: { ...env, EDP_PROFILE: 'prod' } });
    expect(byEnv.code).toBe(3);
    expect(byEnv.stderr).toContain('run `edp auth login --profile prod`');
    const plain = await cli(t.sb, ['workspaces', 'list'], { env });
    expect(plain.stderr).toContain('no agency credentials: run `edp auth login`,');
  });

  it('EDP_PASSWORD without EDP_USERNAME (and the reverse) names the variable missing', async () => {
    const config = freshConfig();
    const password = await cli(t.sb, ['workspaces', 'list'], {
      env: { ...config.env, EDP_USERNAME: undefined, EDP_PASSWORD: PASSWORD },
    });
    expect(password.code).toBe(3);
    expect(password.stderr).toContain('EDP_PASSWORD is set but EDP_USERNAME is not');
    const username = await cli(t.sb, ['workspaces', 'list'], {
      env: { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: undefined },
    });
    expect(username.stderr).toContain('EDP_USERNAME is set but EDP_PASSWORD is not');
  });

  it('a hint of a run under EDP_PROFILE carries --profile', async () => {
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_PROFILE: 'stage' };
    const human = await cli(
      t.sb,
      ['webhooks', 'create', '-w', '102', '--url', 'https://hooks.example.com/stage2', '--events', 'load_completed'],
      { env },
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(/^ {2}edp webhooks verify \d+ --profile stage -w 102$/m);
  });
});

describe('a workspace the agency does not have says where it was named', () => {
  it('the profile default, EDP_WORKSPACE, or -w', async () => {
    const edp = await withDefault101();
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_WORKSPACE: undefined };
    expect((await cli(t.sb, ['config', 'set', 'workspace', '104'], { env })).code).toBe(0);
    const byProfile = await cli(t.sb, ['recipes', 'list'], { env });
    expect(byProfile.code).toBe(5);
    expect(byProfile.stderr).toContain(
      'workspace 104 (the default workspace of profile "default": `edp config set workspace ID` changes it) was not found',
    );
    const byEnv = await cli(t.sb, ['recipes', 'list'], { env: { ...env, EDP_WORKSPACE: '104' } });
    expect(byEnv.stderr).toContain('workspace 104 (EDP_WORKSPACE) was not found');
    const byFlag = await edp('recipes', 'list', '-w', '104');
    expect(byFlag.stderr).toContain('workspace 104 was not found');
  });
});

/** The words of the last command a message suggests (`edp …` in backticks), with the variables it sets before it. */
function pastedCommand(text: string): { env: Record<string, string>; argv: string[] } {
  const all = [...text.matchAll(/`((?:[A-Z_]+=\S+ )*edp [^`]+)`/g)];
  expect(all.length, text).toBeGreaterThan(0);
  const words = [...all.at(-1)![1]!.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll("'\\''", "'") : m[2]!,
  );
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  expect(words.shift()).toBe('edp');
  return { env, argv: words };
}

describe('a hint, pasted into the same shell, runs', () => {
  it('a template title not found: the list command names the workspace, and pasted lists its templates', async () => {
    const edp = await withDefault101();
    const r = await edp(
      'recipes',
      'deploy',
      '-w',
      '103',
      '--template',
      'Paid medai zz',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    );
    expect(r.code, r.stderr).toBe(5);
    const pasted = pastedCommand(r.stderr);
    expect(pasted.argv).toEqual(['recipes', 'templates', '-w', '103']);
    const run = await edp(...pasted.argv);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\d+/);
  });

  it('a refused EDP_TOKEN: the command printing a new one, pasted where EDP_TOKEN is still set, prints one for the same workspace', async () => {
    const config = freshConfig();
    const env = {
      ...config.env,
      EDP_USERNAME: USERNAME,
      EDP_PASSWORD: PASSWORD,
      EDP_TOKEN: 'not-a-token',
      EDP_WORKSPACE: '102',
    };
    const r = await cli(t.sb, ['recipes', 'list'], { env });
    expect(r.code).toBe(3);
    const pasted = pastedCommand(r.stderr);
    expect(pasted.argv.slice(0, 2)).toEqual(['token', '--env']);
    const run = await cli(t.sb, pasted.argv, { env: { ...env, ...pasted.env } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^export EDP_TOKEN=\S+\nexport EDP_WORKSPACE=102\n$/);
  });

  it('a workspace not found: the list command, pasted, lists the workspaces', async () => {
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_WORKSPACE: '104' };
    const r = await cli(t.sb, ['recipes', 'list'], { env });
    expect(r.code).toBe(5);
    const run = await cli(t.sb, pastedCommand(r.stderr).argv, { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('101');
  });
});

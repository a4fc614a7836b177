import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { BIN, collected, requireBuild, ROOT } from '../e2e/helpers.js';
import { limitConcurrentTests } from '../e2e/concurrency.js';

// The CI recipes of docs/ci.md, run: every `run:` and `script:` line of each job, in order, in
// one bash (as a runner does), against a sandbox standing for the service. The single
// executable a build job hands on is the built `bin/edp.js` behind a one-line launcher of the
// same name; `gh` and `curl`, which reach the forge, are stand-ins that record their
// arguments. The build jobs' lines are not run (a clone and a build of edp): they are checked
// to be the commands the project's own CI builds the executable with. Each job has a sandbox
// and a folder of its own, so the jobs run a few at a time.

limitConcurrentTests();

const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');

interface Recipe {
  file: string;
  kind: 'github' | 'gitlab';
  jobs: Record<string, Step[]>;
}
interface Step {
  run: string;
  env: Record<string, string>;
}

/** The YAML blocks of docs/ci.md, each named by its first line (`# .gitlab-ci.yml`). */
function recipes(): Recipe[] {
  return [...doc.matchAll(/```yaml\n# (\S+)\n([\s\S]*?)```/g)].map(([, file, body]) => {
    const yaml = parseYaml(body!) as Record<string, any>;
    if (file!.startsWith('.github/')) {
      const jobs = Object.fromEntries(
        Object.entries(
          yaml.jobs as Record<string, { steps: Array<{ run?: string; env?: Record<string, string> }> }>,
        ).map(([name, job]) => [
          name,
          job.steps.filter((s) => s.run !== undefined).map((s) => ({ run: s.run!, env: { ...yaml.env, ...s.env } })),
        ]),
      );
      return { file: file!, kind: 'github' as const, jobs };
    }
    const jobs = Object.fromEntries(
      Object.entries(yaml)
        .filter(([, job]) => job && typeof job === 'object' && Array.isArray(job.script))
        .map(([name, job]) => [name, (job.script as string[]).map((run) => ({ run, env: {} }))]),
    );
    return { file: file!, kind: 'gitlab' as const, jobs };
  });
}

/** The values of the `${{ … }}` expressions the recipes use: the secrets and the event. */
function expressions(sb: Sandbox): Record<string, string> {
  return {
    'secrets.EDP_BASE_URL': sb.url,
    'secrets.EDP_USERNAME': USERNAME,
    'secrets.EDP_PASSWORD': PASSWORD,
    'github.event.number': '7',
    'github.token': 'gh-token',
  };
}

function expand(value: string, known: Record<string, string>): string {
  return String(value).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, name: string) => {
    expect(known, `an expression the test does not know: ${name}`).toHaveProperty([name]);
    return known[name]!;
  });
}

const work = tempDir('edp-ci-recipes-');
beforeAll(() => requireBuild());
afterAll(() => work.remove());

/** A job's folder: the repository checked out (fleet.yaml), the artifact, the stand-ins. */
async function jobFolder(
  sb: Sandbox,
  name: string,
  change: boolean,
): Promise<{ dir: string; home: string; tools: string }> {
  const dir = join(work.dir, name);
  const home = join(dir, '.home');
  const tools = join(dir, '.tools');
  mkdirSync(tools, { recursive: true });
  mkdirSync(home, { recursive: true });
  const launcher = `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`;
  for (const path of ['edp-linux-x64', 'edp-cli/dist/edp-linux-x64']) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), launcher);
  }
  for (const tool of ['gh', 'curl']) {
    writeFileSync(join(tools, tool), `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> "${join(dir, 'forge.log')}"\n`);
    chmodSync(join(tools, tool), 0o755);
  }
  // The repository's fleet file: workspace 101 as exported, with (`change`) an endpoint to create.
  const out = join(dir, 'fleet.yaml');
  const env = { EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_CONFIG_DIR: join(dir, '.cfg') };
  expect((await cli(sb, ['export', '-w', '101', '--output', out], { env })).code).toBe(0);
  const fleet = parseYaml(readFileSync(out, 'utf8')) as { webhooks?: unknown[] };
  if (change)
    fleet.webhooks = [
      ...(fleet.webhooks ?? []),
      { url: `https://hooks.example.com/${name}`, events: ['load_completed'] },
    ];
  writeFileSync(out, JSON.stringify(fleet, null, 2));
  return { dir, home, tools };
}

/** Runs a job's lines in one bash, as a runner does, with the runner's files and variables. */
async function runJob(sb: Sandbox, kind: Recipe['kind'], name: string, steps: Step[]) {
  const { dir, home, tools } = await jobFolder(sb, name, !name.endsWith('drift'));
  const known = expressions(sb);
  const githubPath = join(dir, '.github-path');
  writeFileSync(githubPath, '');
  // GITHUB_PATH's folders are on PATH from the next step on.
  const script = [
    'set -eo pipefail',
    ...steps.map((s) => {
      const env = Object.entries(s.env).map(([k, v]) => `export ${k}=${shellQuote(expand(v, known))}`);
      const next = kind === 'github' ? ['PATH="$(paste -sd: "$GITHUB_PATH"):$PATH"'] : [];
      return [...env, s.run, ...next].join('\n');
    }),
  ].join('\n');
  const env: NodeJS.ProcessEnv = {
    PATH: [tools, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    HOME: home,
    EDP_CONFIG_DIR: join(dir, '.cfg'),
    GITHUB_PATH: githubPath,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITLAB_TOKEN: 'gl-token',
    CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    // GitLab's variables come from the project's settings: the service's address and credentials.
    ...(kind === 'gitlab' ? { EDP_BASE_URL: sb.url, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD } : {}),
  };
  const child = spawn('bash', ['-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    const r = await collected(child);
    const read = (file: string) => {
      try {
        return readFileSync(join(dir, file), 'utf8');
      } catch {
        return '';
      }
    };
    return { ...r, dir, forge: read('forge.log'), summary: read('summary.md'), read };
  } finally {
    // A job's background processes (the sandbox it started) end with it.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const BUILD_JOB = 'edp';
const all = recipes();

describe.concurrent('docs/ci.md', () => {
  it('holds the GitHub Actions and GitLab CI recipes, each with a job that builds edp', ({ expect }) => {
    expect(all.map((r) => r.file)).toEqual([
      '.github/workflows/fleet.yml',
      '.github/workflows/scripts.yml',
      '.gitlab-ci.yml',
    ]);
    // The build lines are those of the project's CI (.ci/run builds the executable with them).
    const ciRun = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ciRun).toContain('npm run build:binary');
    for (const r of all.filter((x) => x.jobs[BUILD_JOB]))
      expect(r.jobs[BUILD_JOB]!.map((s) => s.run).join('\n')).toMatch(/npm ci && npm run build:binary/);
  });

  for (const recipe of all)
    for (const [job, steps] of Object.entries(recipe.jobs).filter(([name]) => name !== BUILD_JOB))
      it(`${recipe.file}: the ${job} job runs as written`, async ({ expect, onTestFinished }) => {
        const sb = await sandbox({ buildSeconds: 0 });
        onTestFinished(() => sb.close());
        const r = await runJob(sb, recipe.kind, `${recipe.kind}-${job}`, steps);
        expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
        if (job === 'plan') {
          // The plan, in Markdown, reached the pull request; the saved plan is there to apply.
          const body = r.read('plan.md');
          expect(body).toMatch(/webhook/);
          expect(r.read('plan.json')).toContain('"source"');
          expect(r.forge).toMatch(
            recipe.kind === 'github'
              ? /^gh pr comment 7 --body-file plan\.md$/m
              : /^curl .*body@plan\.md.*merge_requests\/7\/notes$/m,
          );
        }
        if (job === 'apply') {
          // The new endpoint's secret went to the file, not the log.
          expect(Object.keys(JSON.parse(r.read('webhook-secrets.json')))).not.toHaveLength(0);
          expect(r.stdout + r.stderr).not.toMatch(/[0-9a-f]{64}/);
        }
        if (job === 'drift') expect(r.summary).toMatch(/webhook|No change/i);
        if (job === 'test') expect(r.stdout.trim()).toMatch(/^\d+$/);
      });
});

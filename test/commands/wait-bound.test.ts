import { describe, it, type TestContext } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { Answer } from '../../src/sandbox/options.js';
import {
  cli,
  configuration,
  configure,
  control,
  createRecipe,
  extractionDemo,
  FAST,
  http,
  RECIPE_READ,
  sandbox,
  tokenFor,
  useFiles,
  V31,
} from '../support/index.js';

// Every wait is bounded by its own deadline, whatever --timeout and the client's retries would
// allow; and a fleet run that has found the service unreachable starts no further write.
//
// A hung service: the sandbox holds every answer (latency, on its manual clock, which stands
// still), as a stopped process would. A dying one: it carries each request out, then drops the
// connection before the answer (reset rate 1), so its journal shows every request that arrived.
// Each is switched on from the sandbox's own hook as a chosen answer leaves, so that it begins
// exactly there, whatever the machine's speed.
//
// A held read is given up in real time (MIN_READ_MS, src/util/poll.ts), not on the run's pretend
// clock, so each hung-service test waits 2 s for nothing: the tests run concurrently, each with
// its own sandbox (and so its own journal and faults), so those waits overlap.

const file = useFiles('edp-wait-bound-');

/** What a run against `sb` can switch on: `after(test)` makes the answer matching `test` the last that is normal. */
async function faultySandbox(onTestFinished: TestContext['onTestFinished']): Promise<
  Sandbox & {
    hangAfter(test: (a: Answer) => boolean): void;
    dropAfter(test: (a: Answer) => boolean): void;
    arrived: string[];
  }
> {
  let after: ((a: Answer) => void) | undefined;
  const sb = await sandbox({ buildSeconds: 600, onAnswer: (a) => after?.(a) });
  const arrived: string[] = [];
  // Every request that reaches the sandbox, answered or not.
  sb.app.server.on('request', (req: { method?: string; url?: string }) => arrived.push(`${req.method} ${req.url}`));
  onTestFinished(() => sb.close());
  const on = (test: (a: Answer) => boolean, fault: () => void) => {
    after = (a) => {
      if (!test(a)) return;
      after = undefined;
      fault();
    };
  };
  return Object.assign(sb, {
    arrived,
    hangAfter: (test: (a: Answer) => boolean) =>
      on(test, () => {
        sb.store.opts.latencyMs = 24 * 3600_000;
      }),
    dropAfter: (test: (a: Answer) => boolean) =>
      on(test, () => {
        sb.store.opts.resetRate = 1;
      }),
  });
}

/** A recipe of workspace 101 whose build has started and goes on. */
async function buildingRecipe(sb: Sandbox): Promise<string> {
  const token = await tokenFor(sb, 101);
  const id = await createRecipe(sb, token, 4001);
  await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
  const b = await http(sb, 'POST', `${V31}${id}/build/`, { token });
  if (b.status !== 202) throw new Error(`build: ${b.status} ${b.text}`);
  return id;
}

/** The first read of a recipe once a build has started: the wait of step 6 has begun. */
function buildWaitRead(): (a: Answer) => boolean {
  let built = false;
  return (a) => {
    if (a.method === 'POST' && /\/build\/$/.test(a.route ?? '')) built = true;
    return built && a.method === 'GET' && RECIPE_READ.test(a.route ?? '');
  };
}

describe.concurrent('a read the service does not answer ends at --wait-timeout (exit 8), whatever --timeout', () => {
  it('recipes poll: never read, the wait names the address and the command that keeps waiting', async ({
    expect,
    onTestFinished,
  }) => {
    const sb = await faultySandbox(onTestFinished);
    const id = await buildingRecipe(sb);
    await control(sb, 'PATCH', '/faults', { latency_ms: 24 * 3600_000 });
    const r = await cli(sb, ['recipes', 'poll', id, '-w', '101', '--wait-timeout', '2s', '--timeout', '10m']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(
      `recipe ${id} was not read within 2 s: the service at ${sb.url} did not answer; a build under way goes on at the service; keep waiting with \`edp recipes poll ${id} -w 101\``,
    );
    expect(r.stderr).toContain(`Recipe ${id}: stopped waiting`);
  });

  it('loads run --wait: the run started, then its reads go unanswered', async ({ expect, onTestFinished }) => {
    const sb = await faultySandbox(onTestFinished);
    const d = extractionDemo(sb);
    const made = await cli(sb, [
      'loads',
      'create',
      '--table',
      String(d.table.id),
      '--destination-connection',
      String(d.s3.id),
      '-w',
      '101',
      '--json',
    ]);
    expect(made.code).toBe(0);
    const id = String(made.json().id);
    sb.hangAfter((a) => a.method === 'PUT' && /\/run$/.test(a.route ?? ''));
    const r = await cli(sb, ['loads', 'run', id, '--wait', '-w', '101', '--wait-timeout', '2s', '--timeout', '10m']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(
      `load ${id} was not read within --wait-timeout 2s: the service at ${sb.url} did not answer; it goes on at the service; follow it with \`edp loads get ${id} -w 101\``,
    );
    expect(r.stderr).toContain(`load ${id}: stopped waiting after 2s, the service is not answering`);
  });

  it('recipes status --watch: the rows as first read, and that the next read went unanswered', async ({
    expect,
    onTestFinished,
  }) => {
    const sb = await faultySandbox(onTestFinished);
    const id = await buildingRecipe(sb);
    // The snapshot's list read is answered; every read of the watch after it is held.
    sb.hangAfter((a) => a.method === 'GET' && a.route === V31);
    const r = await cli(sb, ['recipes', 'status', '-w', '101', '--watch', '--wait-timeout', '2s', '--timeout', '10m']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(
      /1 build\(s\) still running after 2 s \(read (just now|\d+ s ago); the service did not answer the read after it\); the builds go on at the service/,
    );
    expect(r.stdout).toContain(`101\t${id}\t`);
  });

  it('a Retry-After longer than the time left: the pause ends at the deadline', async ({ expect, onTestFinished }) => {
    const sb = await faultySandbox(onTestFinished);
    const id = await buildingRecipe(sb);
    await control(sb, 'PATCH', '/faults', { fail_rate: 1, retry_after: 30 });
    const r = await cli(sb, ['recipes', 'poll', id, '-w', '101', '--wait-timeout', '10s']);
    expect(r.code).toBe(1);
    // The token request of the first read meets the 503 first.
    expect(r.stderr).toContain(`the service at ${sb.url} is failing (503`);
    // The run's pretend time: no pause runs past the deadline, 10 s away.
    expect(r.pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
  });
});

const fleetFile = (workspaces: string) =>
  `workspaces: [${workspaces}]\n` +
  'recipes:\n  - template: 4001\n    sources:\n      - data_source: google_ads\n        accounts: [all-active]\n' +
  'webhooks:\n  - url: https://hooks.example.com/one\n    events: [load_completed]\n' +
  '  - url: https://hooks.example.com/two\n    events: [recipe_activated]\n';

/** The requests that arrived after the one matching `from` (method and path). */
const writesAfter = (sb: { arrived: string[] }, from: RegExp) => {
  const start = sb.arrived.findIndex((x) => from.test(x));
  return sb.arrived.slice(start + 1).filter((x) => !x.startsWith('GET ') && !x.startsWith('POST /api/v3/token'));
};

describe.concurrent('a fleet run that has found the service unreachable starts no further write', () => {
  it('apply: the wait ends on a service that drops every answer; no webhook is created, the next workspace is not started', async ({
    expect,
    onTestFinished,
  }) => {
    const sb = await faultySandbox(onTestFinished);
    sb.dropAfter(buildWaitRead());
    const f = file('drop.yaml', fleetFile('101, 102'));
    const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', '--concurrency', '1', ...FAST]);
    expect(r.code).toBe(1);
    // Nothing was written after the build of the first workspace started: its reads only.
    expect(writesAfter(sb, /^POST \/api\/v3\.1\/automated-recipes\/\d+\/build\/$/)).toEqual([]);
    expect(sb.arrived.some((x) => x.startsWith('POST') && x.includes('webhook'))).toBe(false);
    const rows = r.json() as Array<{
      workspace_id: number;
      resource: string;
      result: string;
      error: any;
      note: string;
    }>;
    const recipe101 = rows.find((x) => x.workspace_id === 101 && x.resource === 'recipe')!;
    expect(recipe101).toMatchObject({ result: 'failed', error: { code: 'network_error' } });
    const notStarted = rows.filter((x) => x.result === 'not started');
    expect(notStarted.map((x) => `${x.workspace_id} ${x.resource}`).sort()).toEqual([
      '101 webhook',
      '101 webhook',
      '102 recipe',
      '102 webhook',
      '102 webhook',
    ]);
    for (const x of notStarted) {
      expect(x.error.code).toBe('service_unreachable');
      expect(x.error.message).toMatch(
        new RegExp(
          `^not started: the service at ${sb.url} was found unreachable in this run \\((ECONNRESET|UND_ERR_SOCKET)\\); nothing was sent for it$`,
        ),
      );
      // The command to paste plans the same file again.
      expect(x.note).toMatch(/`edp plan -f \S*drop\.yaml[^`]*` shows what is left$/);
    }
  });

  it('apply: a hung service; the wait ends at --wait-timeout and no webhook is created', async ({
    expect,
    onTestFinished,
  }) => {
    const sb = await faultySandbox(onTestFinished);
    sb.hangAfter(buildWaitRead());
    const f = file('hang.yaml', fleetFile('101'));
    const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', '--wait-timeout', '2s', '--timeout', '10m', ...FAST]);
    // The recipe's wait timed out (8), the webhooks were not started (1): mixed failures are 1.
    expect(r.code).toBe(1);
    expect(sb.arrived.some((x) => x.startsWith('POST') && x.includes('webhook'))).toBe(false);
    const rows = r.json() as Array<{ resource: string; result: string; error: any }>;
    expect(rows.find((x) => x.resource === 'recipe')!.error.message).toContain('did not answer the read after it');
    expect(rows.filter((x) => x.resource === 'webhook').map((x) => x.result)).toEqual(['not started', 'not started']);
    expect(rows.find((x) => x.resource === 'webhook')!.error.message).toContain(
      'found unreachable in this run (a wait had no answer by its deadline)',
    );
  });

  it('recipes deploy across workspaces: the workspaces after the one that found it are not started', async ({
    expect,
    onTestFinished,
  }) => {
    const sb = await faultySandbox(onTestFinished);
    sb.dropAfter(buildWaitRead());
    const r = await cli(sb, [
      'recipes',
      'deploy',
      '-w',
      '101,102',
      '--template',
      '4001',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      '--concurrency',
      '1',
      ...FAST,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(writesAfter(sb, /^POST \/api\/v3\.1\/automated-recipes\/\d+\/build\/$/)).toEqual([]);
    const [first, second] = r.json();
    expect(first.error.message).toContain(`the service at ${sb.url} is unreachable`);
    expect(second).toMatchObject({ workspace_id: 102, recipe_id: null });
    expect(second.error.message).toMatch(
      new RegExp(
        `^not started: the service at ${sb.url} was found unreachable in this run \\([A-Z_]+\\); nothing was sent for this workspace$`,
      ),
    );
    expect(r.stderr).toMatch(/\[102\] .* 1\/7 not started: /);
  });
});

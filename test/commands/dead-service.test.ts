import { describe, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  cli,
  configuration,
  configure,
  control,
  createRecipe,
  extractionDemo,
  FAST,
  http,
  sandbox,
  settleClock,
  tokenFor,
  useFiles,
  V31,
  waitUntil,
} from '../support/index.js';

// Every kind of wait against a service that stops answering while it waits: the wait says so
// on its live line, then ends with exit 1 naming the address and the command that resumes it,
// rather than waiting out --wait-timeout (30 minutes by default). A closed sandbox refuses
// connections; --fail-rate 1 answers every request 503 (Retry-After: 0).

const file = useFiles('edp-dead-service-');

/** A sandbox whose builds and runs outlast the test; closed when the test ends, unless it already is. */
async function slowSandbox(): Promise<Sandbox & { stop(): Promise<void> }> {
  const sb = await sandbox({ buildSeconds: 600 });
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= sb.close());
  onTestFinished(stop);
  return Object.assign(sb, { stop });
}

/** Waits until the service has answered a read of `part` made after the last write to it: the wait has begun. */
async function waitHasRead(sb: Sandbox, part: string, startedBy = part): Promise<void> {
  await waitUntil(
    async () => {
      const { results } = (await control(sb, 'GET', '/requests')) as {
        results: Array<{ method: string; path: string; status: number }>;
      };
      const start = results.findLastIndex((e) => e.method !== 'GET' && e.path.includes(startedBy));
      return start >= 0 && results.slice(start + 1).some((e) => e.method === 'GET' && e.path.includes(part));
    },
    { timeoutMs: 10_000, what: `a read of ${part} after ${startedBy} was started` },
  );
}

/** A deployment's first read of its recipe once its build was started (step 6 has begun). */
const waitBuildRead = (sb: Sandbox) => waitHasRead(sb, V31, '/build/');

/** A recipe of workspace 101 whose build has started and goes on. */
async function buildingRecipe(sb: Sandbox): Promise<string> {
  const token = await tokenFor(sb, 101);
  const id = await createRecipe(sb, token, 4001);
  await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
  const b = await http(sb, 'POST', `${V31}${id}/build/`, { token });
  if (b.status !== 202) throw new Error(`build: ${b.status} ${b.text}`);
  return id;
}

const failEverything = (sb: Sandbox) => control(sb, 'PATCH', '/faults', { fail_rate: 1 });

describe('a wait whose service stops answering ends with exit 1', () => {
  it('recipes poll: the service closed mid-wait; the live line says so, the error names the address, the last state and the resume command', async () => {
    const sb = await slowSandbox();
    const id = await buildingRecipe(sb);
    const run = cli(sb, ['recipes', 'poll', id, '-w', '101', ...FAST]);
    await waitHasRead(sb, `${V31}${id}/`);
    await sb.stop();
    const r = await run;
    expect(r.code).toBe(1);
    // The first failed read may find a kept-alive connection reset rather than refused.
    expect(r.stderr).toMatch(/service unreachable \((ECONNREFUSED|ECONNRESET)\), retrying/);
    expect(r.stderr).toContain(`the service at ${sb.url} is unreachable (ECONNREFUSED; 5 reads in a row failed`);
    expect(r.stderr).toMatch(new RegExp(`recipe ${id} was last read (just now|\\d+ s ago), as [a-z_]+;`));
    expect(r.stderr).toContain(`resume the wait with \`edp recipes poll ${id} -w 101\``);
    expect(r.stderr).toContain('the service answered this wait before');
  });

  it('recipes poll: a service never reached is exit 1 saying nothing was read, not a timeout', async () => {
    const sb = await slowSandbox();
    await sb.stop();
    const r = await cli(sb, [
      'recipes',
      'poll',
      '9007199254740993',
      '-w',
      '101',
      ...FAST,
      '--wait-timeout',
      '1h',
      '--json',
    ]);
    expect(r.code).toBe(1);
    const { error } = r.errorJson();
    expect(error.code).toBe('network_error');
    expect(error.message).toContain(`the service at ${sb.url} is unreachable`);
    expect(error.message).toContain('recipe 9007199254740993 was never read');
    expect(error.message).toContain('edp recipes poll 9007199254740993 -w 101');
  });

  it('recipes build --wait: a service answering 503 to every read', async () => {
    const sb = await slowSandbox();
    const token = await tokenFor(sb, 101);
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    const run = cli(sb, ['recipes', 'build', id, '--wait', '-w', '101', ...FAST]);
    await waitHasRead(sb, `${V31}${id}/`);
    await failEverything(sb);
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`Recipe ${id}: [a-z_]+; service failing \\(503 service_unavailable\\), retrying`),
    );
    expect(r.stderr).toContain(`the service at ${sb.url} is failing (503 service_unavailable; 5 reads in a row failed`);
    expect(r.stderr).toContain(`edp recipes poll ${id} -w 101`);
  });

  it('recipes deploy: the build step ends in the error, with the recipe as last read', async () => {
    const sb = await slowSandbox();
    const run = cli(sb, [
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      '4001',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      ...FAST,
      '--json',
    ]);
    await waitBuildRead(sb);
    await sb.stop();
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/6\/7 build: [a-z_]+; service unreachable \((ECONNREFUSED|ECONNRESET)\), retrying/);
    const [row] = r.json();
    expect(row.error).toMatchObject({ code: 'network_error' });
    expect(row.error.message).toContain(`the service at ${sb.url} is unreachable`);
    expect(row.error.message).toContain(`edp recipes poll ${String(row.recipe_id)} -w 101`);
    // The recipe as last read, not as created.
    expect(row.state).not.toBeNull();
  });

  it('apply: the recipe row fails with the error', async () => {
    const sb = await slowSandbox();
    const f = file(
      'apply.yaml',
      'workspaces: [101]\nrecipes:\n  - template: 4001\n    sources:\n      - data_source: google_ads\n        accounts: [all-active]\n',
    );
    const run = cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    await waitBuildRead(sb);
    await failEverything(sb);
    const r = await run;
    expect(r.code).toBe(1);
    const row = r.json().find((x: { resource: string }) => x.resource === 'recipe');
    expect(row).toMatchObject({ result: 'failed', error: { code: 'network_error' } });
    expect(row.error.message).toContain(`the service at ${sb.url} is failing`);
    expect(row.error.message).toContain(`edp recipes poll ${String(row.id)} -w 101`);
  });

  it('recipes status --watch: the rows as last read, and the command that keeps watching', async () => {
    const sb = await slowSandbox();
    await buildingRecipe(sb);
    const run = cli(sb, ['recipes', 'status', '-w', '101', '--watch', ...FAST]);
    await waitHasRead(sb, V31);
    await sb.stop();
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/reading the recipes: service unreachable \((ECONNREFUSED|ECONNRESET)\), retrying/);
    expect(r.stderr).toMatch(/the status of workspace 101 was last read (just now|\d+ s ago), as 1 build\(s\) running/);
    expect(r.stderr).toContain('keep watching with `edp recipes status --watch -w 101`');
    // The rows as they were when the wait ended, as a script expects them.
    expect(r.stdout).toContain('101\t');
  });

  it('extracts run --wait: the run as last read, and the command that follows it', async () => {
    const sb = await slowSandbox();
    const d = extractionDemo(sb);
    // Created with short runs, so that its first run (at creation) is over before the one waited for.
    await control(sb, 'PATCH', '/faults', { build_seconds: 0 });
    const made = await cli(sb, [
      'extracts',
      'create',
      '--template',
      String(d.template('facebook_ads', false).id),
      '--account',
      String(d.accounts('facebook_ads')[0]!.id),
      '-w',
      '101',
      '--json',
    ]);
    expect(made.code).toBe(0);
    const id = String(made.json().id);
    await settleClock(sb);
    expect(sb.store.state.extracts.find((x) => String(x.id) === id)!.status).toBe('completed');
    await control(sb, 'PATCH', '/faults', { build_seconds: 600 });
    const run = cli(sb, ['extracts', 'run', id, '--wait', '-w', '101', ...FAST]);
    await waitHasRead(sb, `/api/v3/extracts/${id}`);
    await failEverything(sb);
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`Waiting for extract ${id}; service failing \\(503[^)]*\\), retrying`));
    expect(r.stderr).toContain(`extract ${id}: stopped waiting, the service is not answering`);
    expect(r.stderr).toMatch(new RegExp(`extract ${id} was last read (just now|\\d+ s ago), as running`));
    expect(r.stderr).toContain(`follow it with \`edp extracts get ${id} -w 101\``);
  });

  it('loads run --wait: the run as last read, and the command that follows it', async () => {
    const sb = await slowSandbox();
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
    const run = cli(sb, ['loads', 'run', id, '--wait', '-w', '101', ...FAST]);
    await waitHasRead(sb, `/api/v3/loads/${id}`);
    await failEverything(sb);
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`load ${id} was last read (just now|\\d+ s ago), as running \\(run \\d+\\)`));
    expect(r.stderr).toContain(`follow it with \`edp loads get ${id} -w 101\``);
  });
});

describe('a wait that ends by its timeout says what it read last and when', () => {
  it('recipes poll: exit 8 with the state read and how long ago', async () => {
    const sb = await slowSandbox();
    const id = await buildingRecipe(sb);
    const r = await cli(sb, ['recipes', 'poll', id, '-w', '101', ...FAST, '--wait-timeout', '50ms']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(
      new RegExp(`recipe ${id} is still [a-z_]+ after 0 s \\(read (just now|\\d+ s ago)\\); the build goes on`),
    );
  });

  it('loads run --wait: exit 8 with the run as read and how long ago', async () => {
    const sb = await slowSandbox();
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
    const r = await cli(sb, ['loads', 'run', id, '--wait', '-w', '101', ...FAST, '--wait-timeout', '50ms']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(
      new RegExp(
        `load ${id} did not finish within --wait-timeout 50ms: it was running \\(run \\d+\\) when read (just now|\\d+ s ago); it goes on at the service; follow it with \`edp loads get ${id} -w 101\``,
      ),
    );
  });
});

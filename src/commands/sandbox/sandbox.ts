import { suggest } from '../../util/suggest.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt } from '../../util/validate.js';
import type { SandboxOptions } from './command.js';
import type { Fixture } from '../../sandbox/index.js';
import { parseDocument, readSource } from '../../util/document.js';
import { existsSync } from 'node:fs';

function rate(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n < 0 || n > 1)
    throw new UsageError(`${flag} must be a number from 0 to 1, got "${value}"`);
  return n;
}

function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value)) throw new UsageError(`${flag} must be a number of seconds, got "${value}"`);
  return n;
}

/** A control token chosen by the user: long enough not to be guessed, sendable in a header. */
function controlTokenOf(token: { value: string; what: string } | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(token.value))
    throw new UsageError(`${token.what} must be at least 16 printable characters without spaces`);
  return token.value;
}

/**
 * What the sandbox starts with instead of the demo data, when --fixture or --from says: refused
 * with the flags that would choose the demo data, or with a --state file that exists (the state
 * it holds is what a sandbox starts from; a restart goes on from it without --fixture).
 */
function startFlag(opts: SandboxOptions): '--fixture' | '--from' | undefined {
  if (opts.fixture !== undefined && opts.from !== undefined)
    throw new UsageError('--fixture and --from each set what the sandbox starts with; give one of them');
  const flag = opts.fixture !== undefined ? '--fixture' : opts.from !== undefined ? '--from' : undefined;
  if (flag === undefined) return undefined;
  const demo: Array<[string, string | undefined]> = [
    ['--seed', opts.seed],
    ['--username', opts.username],
    ['--password', opts.password],
    ['--scale', opts.scale],
  ];
  for (const [other, value] of demo)
    if (value !== undefined)
      throw new UsageError(
        `${flag} and ${other} do not go together: ${flag} replaces the demo data ${other} is for${other === '--username' || other === '--password' ? ` (the fixture's agency.username and agency.password are the chief's credentials)` : ''}; leave out ${other}`,
      );
  // A --state file that exists is what the sandbox starts from (loadState), whatever --fixture says.
  if (opts.state !== undefined && existsSync(opts.state))
    throw new UsageError(
      `${flag} and --state ${opts.state} do not go together: that file already holds a state, which the sandbox would start from instead of ${flag === '--fixture' ? 'the fixture' : 'the export'}; leave out ${flag} to go on from that state, or delete the file (or name a new one) to start from ${flag === '--fixture' ? 'the fixture' : 'the export'} again`,
    );
  return flag;
}

export async function runSandbox(opts: SandboxOptions, ctx: Context): Promise<void> {
  const from = startFlag(opts);
  const options = {
    host: opts.host,
    port: parsePositiveInt(opts.port, '--port', { min: 0, max: 65535 }),
    seed: opts.seed === undefined ? 1 : parsePositiveInt(opts.seed, '--seed', { min: 0 }),
    username: opts.username ?? 'agency@sandbox.local',
    password: opts.password ?? 'sandbox',
    stateFile: opts.state,
    scale: opts.scale === undefined ? 1 : parsePositiveInt(opts.scale, '--scale', { min: 1, max: 10_000 }),
    latencyMs: parsePositiveInt(opts.latency, '--latency', { min: 0 }),
    failRate: rate(opts.failRate, '--fail-rate'),
    retryAfter: seconds(opts.retryAfter, '--retry-after'),
    resetRate: rate(opts.resetRate, '--reset-rate'),
    buildSeconds: seconds(opts.buildSeconds, '--build-seconds'),
    tokenTtl: seconds(opts.tokenTtl, '--token-ttl'),
    webhookDelay: seconds(opts.webhookDelay, '--webhook-delay'),
    controlToken: controlTokenOf(ctx.settings.sandboxControlToken(opts.controlToken)),
    warn: (message: string) => ctx.output.warn(message),
  };
  const sandboxModule = await import('../../sandbox/index.js');
  const { startSandbox, isLoopbackAddress } = sandboxModule;
  const checkFixture: typeof sandboxModule.checkFixture = (...args) =>
    sandboxModule.checkFixture(...args).catch((err: unknown) => {
      throw ownUsageError(err);
    });
  let fixture: Fixture | undefined;
  if (from === '--fixture') {
    const source = await readSource(opts.fixture!, ctx.io.stdin, '--fixture');
    fixture = await checkFixture(await parseDocument(source.text, '--fixture', source.name), '--fixture', source);
  } else if (from === '--from') {
    const [{ parseFleetFile }, { fixtureFromExport }] = await Promise.all([
      import('../../fleet/file.js'),
      import('./shared/from-export.js'),
    ]);
    const source = await readSource(opts.from!, ctx.io.stdin, '--from');
    const exported = await parseFleetFile(
      await parseDocument(source.text, '--from', source.name),
      '--from',
      source,
      ctx.env,
    );
    fixture = await checkFixture(fixtureFromExport(exported), `--from ${source.name}`);
  }
  if (fixture) {
    // The fixture's chief is the one to sign in as.
    options.username = fixture.agency.username;
    options.password = fixture.agency.password;
  }
  const sandbox = await startSandbox({ ...options, fixture }).catch((err: NodeJS.ErrnoException) => {
    // The port is the user's choice: a taken or forbidden one is bad input, said as such (exit 2).
    if (err.code === 'EADDRINUSE')
      throw new UsageError(
        `--port ${options.port} is already in use on ${options.host}; pick another port, or --port 0 for a free one`,
      );
    if (err.code === 'EACCES')
      throw new UsageError(
        `--port ${options.port} on ${options.host} needs privileges this user lacks; pick a port above 1023`,
      );
    if (err.code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${options.host} is not an address of this machine`);
    throw err;
  });
  ctx.output.line(`Sandbox listening on ${sandbox.url}`);
  ctx.output.line(`Username: ${options.username}`);
  ctx.output.line(`Password: ${options.password}`);
  // Generated at start: shown this once, nowhere else.
  const generated = sandbox.store.opts.controlToken !== undefined && options.controlToken === undefined;
  if (generated) ctx.output.line(`Control token: ${sandbox.store.opts.controlToken}`);
  if (!isLoopbackAddress(options.host)) {
    ctx.output.warn(
      `The sandbox listens on ${options.host}: anyone who can reach this machine over the network can use it with the demo credentials (${options.username} / ${options.password}). Its /_sandbox/ controls need the X-Sandbox-Token header${generated ? ' with the control token above' : ''}.`,
    );
  }
  ctx.output.info(
    `\nTry:\n  export EDP_BASE_URL=${sandbox.url} EDP_USERNAME=${options.username} EDP_PASSWORD=${options.password}\n  ${suggest(['workspaces', 'list'])}\n\nCtrl-C stops the sandbox.`,
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal?.aborted) return resolve();
    ctx.signal?.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', () => resolve());
  });
  await sandbox.close();
}

/**
 * A refusal of the sandbox's code as the command line's own (exit 2). The built sandbox is a
 * bundle of its own (dist/sandbox.cjs) with its own copy of UsageError, which the command
 * line's `instanceof` does not know; its name and details say what it is.
 */
function ownUsageError(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof UsageError || !['UsageError', 'DocumentError'].includes(err.name))
    return err;
  return Object.assign(new UsageError(err.message), { details: (err as { details?: unknown }).details });
}

import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt } from '../../util/validate.js';
import type { Opts } from '../app.js';

function rate(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n < 0 || n > 1) throw new UsageError(`${flag} must be a number from 0 to 1, got "${value}"`);
  return n;
}

function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value)) throw new UsageError(`${flag} must be a number of seconds, got "${value}"`);
  return n;
}

export async function runSandbox(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const options = {
    host: String(opts.host),
    port: parsePositiveInt(opts.port, '--port', { min: 0, max: 65535 }),
    seed: parsePositiveInt(opts.seed, '--seed', { min: 0 }),
    username: String(opts.username),
    password: String(opts.password),
    stateFile: opts.state as string | undefined,
    scale: parsePositiveInt(opts.scale, '--scale', { min: 1, max: 10_000 }),
    latencyMs: parsePositiveInt(opts.latency, '--latency', { min: 0 }),
    failRate: rate(opts.failRate, '--fail-rate'),
    retryAfter: seconds(opts.retryAfter, '--retry-after'),
    resetRate: rate(opts.resetRate, '--reset-rate'),
    buildSeconds: seconds(opts.buildSeconds, '--build-seconds'),
    tokenTtl: seconds(opts.tokenTtl, '--token-ttl'),
    webhookDelay: seconds(opts.webhookDelay, '--webhook-delay'),
  };
  const { startSandbox } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox(options);
  ctx.output.line(`Sandbox listening on ${sandbox.url}`);
  ctx.output.line(`Username: ${options.username}`);
  ctx.output.line(`Password: ${options.password}`);
  ctx.output.info(
    `\nTry:\n  export EDP_BASE_URL=${sandbox.url} EDP_USERNAME=${options.username} EDP_PASSWORD=${options.password}\n  edp workspaces list\n\nCtrl-C stops the sandbox.`,
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal?.aborted) return resolve();
    ctx.signal?.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', () => resolve());
  });
  await sandbox.close();
  return 0;
}

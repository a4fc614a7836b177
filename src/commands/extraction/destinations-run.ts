import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import {
  createDestinationConnection, getDestinationConnection, listDestinationConnections, listDestinations, putDestinationConnection,
  recheckDestinationConnection, renameDestinationConnection, type Destination, type DestinationConnection,
} from '../../api/destinations.js';
import { LosslessNumber, idText } from '../../util/json.js';
import { readAll } from '../../util/stdin.js';
import { parseId, parsePositiveInt } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { checkTitle, limitOf, parseName } from '../shared/options.js';
import { readDocument } from '../../util/document.js';
import { STDIN_SECRET, checkNames, checkS3, isSecretName } from './destination-params.js';

const MASK = '********';

export async function runListDestinations(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listDestinations(api, ws, { limit }),
    [
      { header: 'NAME', value: (d: Destination) => d.name },
      { header: 'TITLE', value: (d: Destination) => d.title },
    ],
    { empty: 'No destinations.' },
  );
  return 0;
}

/** Key/value lines for a person, with any secret masked (the service should not return them, but might). */
export function connectionRows(destination: string, c: DestinationConnection): Array<[string, unknown]> {
  const params = Object.entries(c.connection_params ?? {}).map(([k, v]) => [`connection_params.${k}`, isSecretName(destination, k) ? MASK : v] as [string, unknown]);
  return [
    ['id', c.id],
    ['title', c.title],
    ['destination', c.destination_name ?? destination],
    ['status', c.status],
    ['error', c.error_text ?? ''],
    ['last checked', c.last_checked_at],
    ...params,
  ];
}

/** --json prints what the service sent. */
async function showConnection(ctx: Context, destination: string, c: DestinationConnection): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(c);
  await ctx.output.object(c, connectionRows(destination, c));
}

export async function runListConnections(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const destination = parseName(opts.destination, '--destination');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listDestinationConnections(api, ws, destination, { limit }),
    [
      { header: 'ID', value: (c: DestinationConnection) => c.id },
      { header: 'TITLE', value: (c: DestinationConnection) => c.title },
      { header: 'STATUS', value: (c: DestinationConnection) => c.status },
      { header: 'ERROR', value: (c: DestinationConnection) => c.error_text },
    ],
    { empty: `No ${destination} connections in workspace ${ws}.` },
  );
  return 0;
}

export async function runGetConnection(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(id as string, 'destination connection id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showConnection(ctx, destination, await getDestinationConnection(api, ws, destination, connectionId));
  return 0;
}

function typedValue(text: string): unknown {
  if (/^-?\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : new LosslessNumber(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/**
 * The parameters a command sends: `--file` (JSON or YAML: the parameters, or an object with
 * `connection_params` and `title`), then `--param key=value`, then the named flags. The
 * secret comes from stdin (`--secret-stdin`) or the environment, never from a flag, so that
 * it stays out of shell history and process lists.
 */
async function paramsFrom(ctx: Context, destination: string, opts: Opts): Promise<{ params: Record<string, unknown>; title?: string }> {
  let params: Record<string, unknown> = {};
  let title: string | undefined;
  if (opts.file !== undefined) {
    if (opts.file === '-' && opts.secretStdin) throw new UsageError('--file - and --secret-stdin both read stdin; put the secret in the file or in the environment');
    const doc = await readDocument(opts.file, ctx.io.stdin, '--file');
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError('--file must hold an object of connection parameters');
    const obj = doc as Record<string, unknown>;
    if ('connection_params' in obj) {
      if (!obj.connection_params || typeof obj.connection_params !== 'object') throw new UsageError('--file: connection_params must be an object');
      params = { ...(obj.connection_params as Record<string, unknown>) };
      if (obj.title !== undefined) title = String(obj.title);
    } else {
      params = { ...obj };
    }
  }
  for (const raw of (opts.param as string[] | undefined) ?? []) {
    const i = raw.indexOf('=');
    if (i <= 0) throw new UsageError(`--param takes key=value, got "${raw.replace(/=.*/, '=…')}"`);
    const key = raw.slice(0, i);
    if (isSecretName(destination, key) || key === 'aws_access_key_id') {
      throw new UsageError(`--param ${key}: secrets are read from stdin (--secret-stdin) or the environment, not the command line`);
    }
    params[key] = typedValue(raw.slice(i + 1));
  }
  const flags: Array<[string, string]> = [
    ['connectionOption', 'connection_option'], ['bucket', 'bucket'], ['region', 'region'], ['pathPrefix', 'path_prefix'],
    ['filename', 'filename'], ['fileFormat', 'file_format'], ['assumeRoleArn', 'assume_role_arn'],
  ];
  for (const [flag, key] of flags) if (opts[flag] !== undefined) params[key] = opts[flag];
  if (opts.maxFileSizeMb !== undefined) {
    params.max_file_size_mb = opts.maxFileSizeMb === 'none' ? null : parsePositiveInt(opts.maxFileSizeMb, '--max-file-size-mb', { min: 45, max: 100000 });
  }
  const keyId = opts.awsAccessKeyId ?? ctx.env.EDP_AWS_ACCESS_KEY_ID;
  if (keyId !== undefined && keyId !== '') params.aws_access_key_id = keyId;
  const secretName = STDIN_SECRET[destination];
  if (opts.secretStdin) {
    if (!secretName) throw new UsageError(`--secret-stdin: the tool does not know the secret of destination ${destination}; use --file`);
    const secret = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
    if (secret === '') throw new UsageError('--secret-stdin: standard input was empty');
    params[secretName] = secret;
  } else if (secretName) {
    const env = destination === 's3' ? ctx.env.EDP_AWS_SECRET_ACCESS_KEY : ctx.env.EDP_DESTINATION_SECRET;
    if (env !== undefined && env !== '') params[secretName] = env;
  }
  return { params, ...(title !== undefined ? { title } : {}) };
}

export async function runCreateConnection(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const destination = parseName(opts.destination, '--destination');
  const { params, title: fileTitle } = await paramsFrom(ctx, destination, opts);
  const title = checkTitle(opts.title ?? fileTitle ?? '', '--title');
  checkNames(destination, params);
  if (destination === 's3') checkS3({}, params, true);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const c = await createDestinationConnection(api, ws, destination, title, params);
  if (!ctx.output.machine) ctx.output.success(`Created ${destination} connection ${idText(c.id)} (status ${String(c.status)})`);
  await showConnection(ctx, destination, c);
  return 0;
}

/**
 * Parameters go by PUT, which merges them into the current ones and re-checks the connection;
 * a title alone goes by PATCH. The current parameters are read first so that the S3 rules are
 * checked on the result before anything is sent.
 */
export async function runUpdateConnection(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(id as string, 'destination connection id');
  const { params, title: fileTitle } = await paramsFrom(ctx, destination, opts);
  const titleText = opts.title ?? fileTitle;
  const title = titleText === undefined ? undefined : checkTitle(titleText, '--title');
  checkNames(destination, params);
  const hasParams = Object.keys(params).length > 0;
  if (!hasParams && title === undefined) throw new UsageError('nothing to update: pass --title, parameter flags, --param, --file or --secret-stdin');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  let c: DestinationConnection;
  if (hasParams) {
    if (destination === 's3') {
      const current = await getDestinationConnection(api, ws, destination, connectionId);
      checkS3(current.connection_params ?? {}, params, false);
    }
    c = await putDestinationConnection(api, ws, destination, connectionId, params, title);
  } else {
    c = await renameDestinationConnection(api, ws, destination, connectionId, title!);
  }
  if (!ctx.output.machine) ctx.output.success(`Updated ${destination} connection ${connectionId}${hasParams ? ` and re-checked it: status ${String(c.status)}` : ''}`);
  await showConnection(ctx, destination, c);
  return 0;
}

export async function runRecheckConnection(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(id as string, 'destination connection id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const c = await recheckDestinationConnection(api, ws, destination, connectionId);
  if (!ctx.output.machine) {
    if (c.status === 'active') ctx.output.success(`${destination} connection ${connectionId} is active`);
    else ctx.output.warn(`${destination} connection ${connectionId} is ${String(c.status)}${c.error_text ? `: ${c.error_text}` : ''}`);
  }
  await showConnection(ctx, destination, c);
  return 0;
}

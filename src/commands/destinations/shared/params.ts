import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { readValidDocument } from '../../../util/document.js';
import { LosslessNumber } from '../../../util/json.js';
import { readAll } from '../../../util/stdin.js';
import { parsePositiveInt } from '../../../util/validate.js';
import type { ParamFlags } from '../command.js';

/**
 * The contract's S3 connection rules, checked before anything is sent: `connection_option`
 * (`aws_credentials` default, `bucket_policy`, `role_chaining`), AWS keys only for
 * `aws_credentials`, `assume_role_arn` for `role_chaining`, the service's role fields
 * read-only, `max_file_size_mb` 45..100000 requiring `{{chunk_id}}` in `filename` and
 * `file_format` `parquet`.
 */
export const S3_OPTIONS = ['aws_credentials', 'bucket_policy', 'role_chaining'] as const;
export const S3_KEYS = ['aws_access_key_id', 'aws_secret_access_key'] as const;
const S3_READ_ONLY = ['service_assume_role_arn', 'service_assume_role_externalid'];
const ROLE_ARN = /^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]+$/;

/** Parameter names each destination takes; secrets are write-only and masked when shown. */
export const DESTINATION_PARAMS: Record<string, { known: string[]; secrets: string[] }> = {
  s3: {
    known: [
      'connection_option',
      'bucket',
      'region',
      'path_prefix',
      'filename',
      'file_format',
      'max_file_size_mb',
      ...S3_KEYS,
      'assume_role_arn',
    ],
    secrets: [...S3_KEYS],
  },
  bigquery: { known: ['project_id', 'dataset', 'location', 'service_account_key'], secrets: ['service_account_key'] },
  sftp: { known: ['host', 'port', 'username', 'password', 'path'], secrets: ['password'] },
};

/** The secret a destination reads from stdin or the environment, never from a flag. */
export const STDIN_SECRET: Record<string, string> = {
  s3: 'aws_secret_access_key',
  bigquery: 'service_account_key',
  sftp: 'password',
};

/** Secret-looking names are masked whatever the destination, in case a service returns them. */
export function isSecretName(destination: string, name: string): boolean {
  return (
    (DESTINATION_PARAMS[destination]?.secrets ?? []).includes(name) ||
    /secret|password|private_key|service_account_key/i.test(name)
  );
}

export function checkNames(destination: string, sent: Record<string, unknown>): void {
  const spec = DESTINATION_PARAMS[destination];
  if (!spec) return; // a destination this tool does not know: the service decides
  for (const name of Object.keys(sent)) {
    if (destination === 's3' && S3_READ_ONLY.includes(name))
      throw new UsageError(`${name} is read-only: the service sets it for role_chaining`);
    if (!spec.known.includes(name))
      throw new UsageError(`unknown ${destination} parameter "${name}" (known: ${spec.known.join(', ')})`);
  }
}

/**
 * Checks S3 parameters as they will stand after the request: the `current` values (none on
 * create) with `sent` merged over them, as the service merges a PUT. On update the service
 * keeps secrets the tool cannot see, so their presence is checked only on create or when the
 * connection option changes.
 */
export function checkS3(current: Record<string, unknown>, sent: Record<string, unknown>, creating: boolean): void {
  const merged = { ...current, ...sent };
  const option = merged.connection_option ?? 'aws_credentials';
  if (typeof option !== 'string' || !(S3_OPTIONS as readonly string[]).includes(option)) {
    throw new UsageError(`--connection-option must be one of ${S3_OPTIONS.join(', ')}, got "${String(option)}"`);
  }
  if (typeof merged.bucket !== 'string' || merged.bucket === '')
    throw new UsageError('--bucket is required for an S3 connection');
  const sentKeys = S3_KEYS.filter((k) => sent[k] !== undefined);
  if (sentKeys.length > 0 && sentKeys.length < S3_KEYS.length) {
    throw new UsageError(
      'the AWS keys go together: pass --aws-access-key-id (or EDP_AWS_ACCESS_KEY_ID) and the secret key (--secret-stdin or EDP_AWS_SECRET_ACCESS_KEY)',
    );
  }
  if (option === 'aws_credentials') {
    const switching =
      sent.connection_option !== undefined &&
      sent.connection_option !== (current.connection_option ?? 'aws_credentials');
    if ((creating || switching) && sentKeys.length === 0) {
      throw new UsageError(
        'connection option aws_credentials needs the AWS keys: --aws-access-key-id (or EDP_AWS_ACCESS_KEY_ID) and --secret-stdin (or EDP_AWS_SECRET_ACCESS_KEY)',
      );
    }
  } else if (sentKeys.length > 0) {
    throw new UsageError(`AWS keys are used only with --connection-option aws_credentials, not ${option}`);
  }
  if (option === 'role_chaining') {
    if (typeof merged.assume_role_arn !== 'string')
      throw new UsageError('--connection-option role_chaining needs --assume-role-arn');
    if (!ROLE_ARN.test(merged.assume_role_arn))
      throw new UsageError(
        `--assume-role-arn must be an IAM role ARN such as arn:aws:iam::123456789012:role/name, got "${merged.assume_role_arn}"`,
      );
  } else if (sent.assume_role_arn !== undefined) {
    throw new UsageError(`--assume-role-arn is used only with --connection-option role_chaining, not ${option}`);
  }
  const format = merged.file_format ?? 'csv';
  if (format !== 'csv' && format !== 'parquet')
    throw new UsageError(`--file-format must be csv or parquet, got "${String(format)}"`);
  const size = merged.max_file_size_mb;
  if (size === undefined || size === null) return;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 45 || size > 100000) {
    throw new UsageError(`--max-file-size-mb must be a whole number from 45 to 100000, got ${String(size)}`);
  }
  if (!String(merged.filename ?? '{{table_name}}/{{date}}.csv').includes('{{chunk_id}}')) {
    throw new UsageError('--max-file-size-mb splits files into chunks: --filename must contain {{chunk_id}}');
  }
  if (format !== 'parquet') throw new UsageError('--max-file-size-mb needs --file-format parquet');
}

/** The parameter flags of `connections create` and `update`. */
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
export async function paramsFrom(
  ctx: Context,
  destination: string,
  opts: ParamFlags,
): Promise<{ params: Record<string, unknown>; title?: string }> {
  let params: Record<string, unknown> = {};
  let title: string | undefined;
  if (opts.file !== undefined) {
    if (opts.file === '-' && opts.secretStdin)
      throw new UsageError(
        '--file - and --secret-stdin both read stdin; put the secret in the file or in the environment',
      );
    ({ params, title } = await readValidDocument(
      opts.file,
      ctx.io.stdin,
      '--file',
      'destination connection',
      async () => (await import('./params-schema.js')).connectionFile,
    ));
  }
  for (const raw of opts.param ?? []) {
    const i = raw.indexOf('=');
    if (i <= 0) throw new UsageError(`--param takes key=value, got "${raw.replace(/=.*/, '=…')}"`);
    const key = raw.slice(0, i);
    if (isSecretName(destination, key) || key === 'aws_access_key_id') {
      throw new UsageError(
        `--param ${key}: secrets are read from stdin (--secret-stdin) or the environment, not the command line`,
      );
    }
    params[key] = typedValue(raw.slice(i + 1));
  }
  const flags: Array<[string | undefined, string]> = [
    [opts.connectionOption, 'connection_option'],
    [opts.bucket, 'bucket'],
    [opts.region, 'region'],
    [opts.pathPrefix, 'path_prefix'],
    [opts.filename, 'filename'],
    [opts.fileFormat, 'file_format'],
    [opts.assumeRoleArn, 'assume_role_arn'],
  ];
  for (const [value, key] of flags) if (value !== undefined) params[key] = value;
  if (opts.maxFileSizeMb !== undefined) {
    params.max_file_size_mb =
      opts.maxFileSizeMb === 'none'
        ? null
        : parsePositiveInt(opts.maxFileSizeMb, '--max-file-size-mb', { min: 45, max: 100000 });
  }
  const keyId = opts.awsAccessKeyId ?? ctx.env.EDP_AWS_ACCESS_KEY_ID;
  if (keyId !== undefined && keyId !== '') params.aws_access_key_id = keyId;
  const secretName = STDIN_SECRET[destination];
  if (opts.secretStdin) {
    if (!secretName)
      throw new UsageError(
        `--secret-stdin: the tool does not know the secret of destination ${destination}; use --file`,
      );
    const secret = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
    if (secret === '') throw new UsageError('--secret-stdin: standard input was empty');
    params[secretName] = secret;
  } else if (secretName) {
    const env = destination === 's3' ? ctx.env.EDP_AWS_SECRET_ACCESS_KEY : ctx.env.EDP_DESTINATION_SECRET;
    if (env !== undefined && env !== '') params[secretName] = env;
  }
  return { params, ...(title !== undefined ? { title } : {}) };
}

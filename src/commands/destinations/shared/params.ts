import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { readValidDocument } from '../../../util/document.js';
import { LosslessNumber } from '../../../util/json.js';
import { readAll } from '../../../util/stdin.js';
import { choiceError, parsePositiveInt } from '../../../util/validate.js';
import type { ParamFlags } from '../command.js';
import {
  CHUNK_PLACEHOLDER,
  DESTINATION_PARAMS,
  MAX_FILE_SIZE_MB,
  ROLE_ARN,
  S3_DEFAULT_FILENAME,
  S3_DEFAULT_OPTION,
  S3_FORMATS,
  S3_KEYS,
  S3_OPTIONS,
  S3_READ_ONLY,
} from '../../../contract/destinations.js';

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
    if (destination === 's3' && (S3_READ_ONLY as readonly string[]).includes(name))
      throw new UsageError(`${name} is read-only: the service sets it for role_chaining`);
    if (!spec.known.includes(name))
      throw new UsageError(`unknown ${destination} parameter "${name}" (known: ${spec.known.join(', ')})`);
  }
}

/**
 * The S3 connection rules (src/contract/destinations.ts), checked before anything is sent:
 * `connection_option`, AWS keys only for `aws_credentials`, `assume_role_arn` for
 * `role_chaining`, the service's role fields read-only, `max_file_size_mb` in its bounds
 * requiring `{{chunk_id}}` in `filename` and `file_format` `parquet`.
 *
 * Checks S3 parameters as they will stand after the request: the `current` values (none on
 * create) with `sent` merged over them, as the service merges a PUT. On update the service
 * keeps secrets the tool cannot see, so their presence is checked only on create or when the
 * connection option changes.
 */
export function checkS3(current: Record<string, unknown>, sent: Record<string, unknown>, creating: boolean): void {
  const merged = { ...current, ...sent };
  const option = merged.connection_option ?? S3_DEFAULT_OPTION;
  if (typeof option !== 'string' || !(S3_OPTIONS as readonly string[]).includes(option)) {
    throw choiceError(String(option), S3_OPTIONS, '--connection-option');
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
      sent.connection_option !== (current.connection_option ?? S3_DEFAULT_OPTION);
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
  const format = merged.file_format ?? S3_FORMATS[0];
  if (!(S3_FORMATS as readonly unknown[]).includes(format))
    throw new UsageError(`--file-format must be ${S3_FORMATS.join(' or ')}, got "${String(format)}"`);
  const size = merged.max_file_size_mb;
  if (size === undefined || size === null) return;
  const { min, max } = MAX_FILE_SIZE_MB;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < min || size > max) {
    throw new UsageError(`--max-file-size-mb must be a whole number from ${min} to ${max}, got ${String(size)}`);
  }
  if (!String(merged.filename ?? S3_DEFAULT_FILENAME).includes(CHUNK_PLACEHOLDER)) {
    throw new UsageError(`--max-file-size-mb splits files into chunks: --filename must contain ${CHUNK_PLACEHOLDER}`);
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
        : parsePositiveInt(opts.maxFileSizeMb, '--max-file-size-mb', MAX_FILE_SIZE_MB);
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

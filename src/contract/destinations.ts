/**
 * Destination connection parameters, once, for the client's checks before sending and the
 * sandbox's rules alike. The S3 facts are the service's (docs/contract-rules.md, S3 destination
 * connection parameters); the BigQuery and SFTP names, the S3 file formats and defaults are the
 * sandbox's choice where the contract shows none.
 */

/** `connection_option` of an S3 connection; `aws_credentials` when not given. */
export const S3_OPTIONS = ['aws_credentials', 'bucket_policy', 'role_chaining'] as const;
export const S3_DEFAULT_OPTION = 'aws_credentials';

/** The AWS keys: needed only for `aws_credentials`, secret, and sent together or not at all. */
export const S3_KEYS = ['aws_access_key_id', 'aws_secret_access_key'] as const;

/** Set by the service for `role_chaining`, shown on reads, refused in requests. */
export const S3_READ_ONLY = ['service_assume_role_arn', 'service_assume_role_externalid'] as const;

/** `assume_role_arn`: an IAM role's ARN. */
export const ROLE_ARN = /^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]+$/;

export const S3_FORMATS = ['csv', 'parquet'] as const;
export const S3_DEFAULT_FILENAME = '{{table_name}}/{{date}}.csv';

/** `max_file_size_mb` splits files into chunks: a whole number in these bounds, `{{chunk_id}}` in the file name, parquet. */
export const MAX_FILE_SIZE_MB = { min: 45, max: 100_000 } as const;
export const CHUNK_PLACEHOLDER = '{{chunk_id}}';

/** The parameter names each destination takes; secrets are write-only, never returned. */
export const DESTINATION_PARAMS: Readonly<Record<string, { known: readonly string[]; secrets: readonly string[] }>> = {
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

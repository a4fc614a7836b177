import { describe, expect, it } from 'vitest';
import { cli, tempDir, useSandbox } from '../../helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { destinationConnections, SECRET } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 });
const { edp, stored } = destinationConnections(t);
const count = () => t.sb.store.state.destination_connections.length;

describe('edp destinations connections create', () => {
  it('creates an S3 connection with the secret from stdin, never echoing it', async () => {
    const r = await edp(
      [
        'destinations',
        'connections',
        'create',
        '--destination',
        's3',
        '--title',
        'Lake',
        '--bucket',
        'lake',
        '--aws-access-key-id',
        'AKIALAKE',
        '--secret-stdin',
        '--verbose',
      ],
      { stdin: `${SECRET}\n` },
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const id = Number(/Created s3 connection (\d+)/.exec(r.stderr)![1]);
    expect(stored(id).connection_params).toMatchObject({
      aws_access_key_id: 'AKIALAKE',
      aws_secret_access_key: SECRET,
      connection_option: 'aws_credentials',
    });
  });

  it('takes an SFTP password from the environment, never echoing it', async () => {
    const r = await edp(
      [
        'destinations',
        'connections',
        'create',
        '--destination',
        'sftp',
        '--title',
        'Drop',
        '--param',
        'host=sftp.example.com',
        '--param',
        'username=edp',
        '--param',
        'port=2222',
        '--json',
      ],
      {
        env: { EDP_DESTINATION_SECRET: SECRET },
      },
    );
    expect(r.code).toBe(0);
    expect(r.json().connection_params).toMatchObject({ host: 'sftp.example.com', port: 2222 });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(stored(r.json().id).connection_params.password).toBe(SECRET);
  });

  it('takes the AWS keys from the environment and parameters from a file', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'lake.yaml');
      writeFileSync(
        file,
        'title: Chunked lake\nconnection_params:\n  bucket: chunks\n  file_format: parquet\n  filename: "{{table_name}}/{{chunk_id}}.parquet"\n  max_file_size_mb: 500\n',
      );
      const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--file', file, '--json'], {
        env: { EDP_AWS_ACCESS_KEY_ID: 'AKIAENV', EDP_AWS_SECRET_ACCESS_KEY: SECRET },
      });
      expect(r.code).toBe(0);
      expect(r.json()).toMatchObject({
        title: 'Chunked lake',
        connection_params: { max_file_size_mb: 500, file_format: 'parquet' },
      });
      expect(r.stdout).not.toContain(SECRET);
    } finally {
      dir.remove();
    }
  });

  it("creates a role_chaining connection and shows the service's role", async () => {
    const r = await edp([
      'destinations',
      'connections',
      'create',
      '--destination',
      's3',
      '--title',
      'Chained',
      '--connection-option',
      'role_chaining',
      '--bucket',
      'lake',
      '--assume-role-arn',
      'arn:aws:iam::123456789012:role/edp',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().connection_params.service_assume_role_externalid).toBeTruthy();
  });

  it.each([
    [['--connection-option', 'magic', '--bucket', 'b'], '--connection-option'],
    [['--bucket', 'b'], 'AWS keys'],
    [['--bucket', 'b', '--aws-access-key-id', 'AKIA'], 'go together'],
    [
      ['--connection-option', 'bucket_policy', '--bucket', 'b', '--aws-access-key-id', 'AKIA', '--secret-stdin'],
      'only with --connection-option aws_credentials',
    ],
    [['--connection-option', 'role_chaining', '--bucket', 'b'], '--assume-role-arn'],
    [['--connection-option', 'role_chaining', '--bucket', 'b', '--assume-role-arn', 'arn:nope'], '--assume-role-arn'],
    [
      [
        '--connection-option',
        'bucket_policy',
        '--bucket',
        'b',
        '--assume-role-arn',
        'arn:aws:iam::123456789012:role/edp',
      ],
      'role_chaining',
    ],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '44'], '--max-file-size-mb'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '100001'], '--max-file-size-mb'],
    [
      [
        '--connection-option',
        'bucket_policy',
        '--bucket',
        'b',
        '--max-file-size-mb',
        '100',
        '--file-format',
        'parquet',
      ],
      '{{chunk_id}}',
    ],
    [
      [
        '--connection-option',
        'bucket_policy',
        '--bucket',
        'b',
        '--max-file-size-mb',
        '100',
        '--filename',
        '{{chunk_id}}.csv',
      ],
      'parquet',
    ],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--param', 'colour=red'], 'colour'],
    [
      ['--connection-option', 'bucket_policy', '--bucket', 'b', '--param', `aws_secret_access_key=${SECRET}`],
      'not the command line',
    ],
    [['--connection-option', 'bucket_policy'], '--bucket'],
  ])('refuses %j before sending anything (exit 2)', async (args, mention) => {
    const before = count();
    const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--title', 'x', ...args], {
      stdin: SECRET,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(mention);
    expect(r.stderr).not.toContain(SECRET);
    expect(count()).toBe(before);
  });

  it("shows the service's 400 for rules it checks itself (exit 2)", async () => {
    const r = await edp(
      ['destinations', 'connections', 'create', '--destination', 'sftp', '--title', 'x', '--param', 'username=u'],
      { env: { EDP_DESTINATION_SECRET: SECRET } },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connection_params.host');
  });
});

describe('edp destinations connections create: a check that fails', () => {
  it("says so with the service's reason and exits 1; the commands it names fix and check the connection", async () => {
    const argv = [
      'destinations',
      'connections',
      'create',
      '--destination',
      's3',
      '--title',
      'Denied',
      '--bucket',
      'invalid-lake',
      '--aws-access-key-id',
      'AKIADENIED',
      '--secret-stdin',
    ];
    const r = await edp(argv, { stdin: SECRET });
    expect(r.code).toBe(1);
    const made = t.sb.store.state.destination_connections.at(-1)!;
    expect(made.status).toBe('error');
    expect(r.stderr).not.toContain('✓');
    expect(r.stderr).toContain(
      `error: created s3 connection ${made.id}, but its check failed: Access denied to bucket "invalid-lake".`,
    );
    expect(r.stderr).toContain(`\`edp destinations connections update ${made.id} --destination s3 -w 101 …\``);
    const recheck = /`edp (destinations connections recheck [^`]*)`/.exec(r.stderr)![1]!.split(' ');
    // The connection is shown all the same, and --json prints it with the error on stderr.
    expect(r.stdout).toContain('invalid-lake');
    const json = await edp([...argv, '--json'], { stdin: SECRET });
    expect(json.code).toBe(1);
    expect(json.json().status).toBe('error');
    expect(json.errorJson().error.message).toContain('but its check failed');

    // Fixed through update, then checked again: both succeed.
    const fixed = await edp([
      'destinations',
      'connections',
      'update',
      String(made.id),
      '--destination',
      's3',
      '--bucket',
      'lake',
    ]);
    expect(fixed.code, fixed.stderr).toBe(0);
    const again = await cli(t.sb, recheck);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`s3 connection ${made.id} is active`);
  });
});

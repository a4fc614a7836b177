import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../helpers.js';
import { demo } from '../fixtures/extraction.js';
import { connectionRows } from '../../src/commands/extraction/destinations-run.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCY';
const edp = (argv: string[], opts: Parameters<typeof cli>[2] = {}) => cli(sb, [...argv, '-w', '101'], opts);
const count = () => sb.store.state.destination_connections.length;
const stored = (id: number) => sb.store.state.destination_connections.find((d) => d.id === id)!;

describe('edp destinations', () => {
  it('lists destinations', async () => {
    const r = await edp(['destinations', 'list', '--json']);
    expect(r.json().map((d: any) => d.name)).toEqual(['bigquery', 's3', 'sftp']);
  });

  it('lists and gets connections; 404 for an unknown destination is exit 5', async () => {
    const s3 = demo(sb).s3;
    const list = await edp(['destinations', 'connections', 'list', '--destination', 's3', '--json']);
    expect(list.json().map((c: any) => c.id)).toContain(s3.id);
    const get = await edp(['destinations', 'connections', 'get', String(s3.id), '--destination', 's3'], { tty: true });
    expect(get.stdout).toContain('edp-sandbox-101');
    expect(get.stdout).not.toContain(String(s3.connection_params.aws_secret_access_key));
    expect((await edp(['destinations', 'connections', 'list', '--destination', 'nope'])).code).toBe(5);
  });

  it('creates an S3 connection with the secret from stdin, never echoing it', async () => {
    const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--title', 'Lake', '--bucket', 'lake', '--aws-access-key-id', 'AKIALAKE', '--secret-stdin', '--verbose'], { stdin: `${SECRET}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const id = Number(/Created s3 connection (\d+)/.exec(r.stderr)![1]);
    expect(stored(id).connection_params).toMatchObject({ aws_access_key_id: 'AKIALAKE', aws_secret_access_key: SECRET, connection_option: 'aws_credentials' });
  });

  it('takes an SFTP password from the environment, never echoing it', async () => {
    const r = await edp(['destinations', 'connections', 'create', '--destination', 'sftp', '--title', 'Drop', '--param', 'host=sftp.example.com', '--param', 'username=edp', '--param', 'port=2222', '--json'], {
      env: { EDP_DESTINATION_SECRET: SECRET },
    });
    expect(r.code).toBe(0);
    expect(r.json().connection_params).toMatchObject({ host: 'sftp.example.com', port: 2222 });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(stored(r.json().id).connection_params.password).toBe(SECRET);
  });

  it('masks secret parameters in the human view, should a service return them', () => {
    const rows = Object.fromEntries(connectionRows('s3', { id: 1, connection_params: { bucket: 'b', aws_access_key_id: 'AKIA', aws_secret_access_key: SECRET, vendor_password: 'p' } }));
    expect(rows['connection_params.bucket']).toBe('b');
    expect(rows['connection_params.aws_access_key_id']).toBe('********');
    expect(rows['connection_params.aws_secret_access_key']).toBe('********');
    expect(rows['connection_params.vendor_password']).toBe('********');
  });

  it('takes the AWS keys from the environment and parameters from a file', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'lake.yaml');
      writeFileSync(file, 'title: Chunked lake\nconnection_params:\n  bucket: chunks\n  file_format: parquet\n  filename: "{{table_name}}/{{chunk_id}}.parquet"\n  max_file_size_mb: 500\n');
      const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--file', file, '--json'], {
        env: { EDP_AWS_ACCESS_KEY_ID: 'AKIAENV', EDP_AWS_SECRET_ACCESS_KEY: SECRET },
      });
      expect(r.code).toBe(0);
      expect(r.json()).toMatchObject({ title: 'Chunked lake', connection_params: { max_file_size_mb: 500, file_format: 'parquet' } });
      expect(r.stdout).not.toContain(SECRET);
    } finally {
      dir.remove();
    }
  });

  it('creates a role_chaining connection and shows the service\'s role', async () => {
    const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--title', 'Chained', '--connection-option', 'role_chaining', '--bucket', 'lake', '--assume-role-arn', 'arn:aws:iam::123456789012:role/edp', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().connection_params.service_assume_role_externalid).toBeTruthy();
  });

  it.each([
    [['--connection-option', 'magic', '--bucket', 'b'], '--connection-option'],
    [['--bucket', 'b'], 'AWS keys'],
    [['--bucket', 'b', '--aws-access-key-id', 'AKIA'], 'go together'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--aws-access-key-id', 'AKIA', '--secret-stdin'], 'only with --connection-option aws_credentials'],
    [['--connection-option', 'role_chaining', '--bucket', 'b'], '--assume-role-arn'],
    [['--connection-option', 'role_chaining', '--bucket', 'b', '--assume-role-arn', 'arn:nope'], '--assume-role-arn'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--assume-role-arn', 'arn:aws:iam::123456789012:role/edp'], 'role_chaining'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '44'], '--max-file-size-mb'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '100001'], '--max-file-size-mb'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '100', '--file-format', 'parquet'], '{{chunk_id}}'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--max-file-size-mb', '100', '--filename', '{{chunk_id}}.csv'], 'parquet'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--param', 'colour=red'], 'colour'],
    [['--connection-option', 'bucket_policy', '--bucket', 'b', '--param', `aws_secret_access_key=${SECRET}`], 'not the command line'],
    [['--connection-option', 'bucket_policy'], '--bucket'],
  ])('refuses %j before sending anything (exit 2)', async (args, mention) => {
    const before = count();
    const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--title', 'x', ...args], { stdin: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(mention);
    expect(r.stderr).not.toContain(SECRET);
    expect(count()).toBe(before);
  });

  it('shows the service\'s 400 for rules it checks itself (exit 2)', async () => {
    const r = await edp(['destinations', 'connections', 'create', '--destination', 'sftp', '--title', 'x', '--param', 'username=u'], { env: { EDP_DESTINATION_SECRET: SECRET } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connection_params.host');
  });

  describe('update', () => {
    async function lake() {
      const r = await edp(['destinations', 'connections', 'create', '--destination', 's3', '--title', 'Lake', '--bucket', 'lake', '--region', 'eu-west-1', '--aws-access-key-id', 'AKIA1', '--secret-stdin', '--json'], { stdin: SECRET });
      return r.json().id as number;
    }

    it('merges parameters (PUT), keeping the rest and the secret, and re-checks', async () => {
      const id = await lake();
      const r = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--path-prefix', 'exports/', '--json']);
      expect(r.code).toBe(0);
      expect(r.json().connection_params).toMatchObject({ bucket: 'lake', region: 'eu-west-1', path_prefix: 'exports/' });
      expect(r.json().last_checked_at).toBeTruthy();
      expect(stored(id).connection_params.aws_secret_access_key).toBe(SECRET);
    });

    it('renames with --title alone (PATCH)', async () => {
      const id = await lake();
      const checked = stored(id).last_checked_at;
      const r = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--title', 'Renamed', '--json']);
      expect(r.json().title).toBe('Renamed');
      expect(stored(id).last_checked_at).toBe(checked);
    });

    it('checks the S3 rules against the current parameters before sending (exit 2)', async () => {
      const id = await lake();
      const before = JSON.stringify(stored(id));
      const chunks = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--max-file-size-mb', '100']);
      expect(chunks.code).toBe(2);
      expect(chunks.stderr).toContain('{{chunk_id}}');
      const halfKeys = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--secret-stdin'], { stdin: 'new' });
      expect(halfKeys.code).toBe(2);
      expect((await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3'])).code).toBe(2);
      expect(JSON.stringify(stored(id))).toBe(before);
    });

    it('rotates both keys together', async () => {
      const id = await lake();
      const r = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--aws-access-key-id', 'AKIA2', '--secret-stdin'], { stdin: 'rotated' });
      expect(r.code).toBe(0);
      expect(stored(id).connection_params).toMatchObject({ aws_access_key_id: 'AKIA2', aws_secret_access_key: 'rotated' });
    });

    it('reports a failing check, and recheck shows the status', async () => {
      const id = await lake();
      const bad = await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3', '--bucket', 'invalid-lake', '--json']);
      expect(bad.json()).toMatchObject({ status: 'error', error_text: expect.stringContaining('invalid-lake') });
      const recheck = await edp(['destinations', 'connections', 'recheck', String(id), '--destination', 's3']);
      expect(recheck.code).toBe(0);
      expect(recheck.stderr).toContain('is error');
      const ok = await edp(['destinations', 'connections', 'recheck', String(demo(sb).s3.id), '--destination', 's3']);
      expect(ok.stderr).toContain('is active');
    });
  });
});

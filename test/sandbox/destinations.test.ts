import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../helpers.js';
import { bearer, demo } from '../fixtures/extraction.js';

let sb: Sandbox;
let call: ReturnType<typeof bearer>;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  call = bearer(sb);
});
afterAll(() => sb.close());

const KEYS = { aws_access_key_id: 'AKIAEXAMPLE', aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG' };
const create = (params: Record<string, unknown>) =>
  call('POST', '/api/v3/destinations/s3/connections', { title: 'Lake', connection_params: params });

describe('destinations (HTTP)', () => {
  it('lists destinations with name and title', async () => {
    const r = await call('GET', '/api/v3/destinations');
    expect(r.body.results).toContainEqual({ name: 's3', title: 'Amazon S3' });
  });

  it('lists and gets the demo S3 connection without secrets; unknown destination 404', async () => {
    const s3 = demo(sb).s3;
    const list = await call('GET', '/api/v3/destinations/s3/connections');
    expect(list.body.results.map((c: any) => c.id)).toContain(s3.id);
    const r = await call('GET', `/api/v3/destinations/s3/connections/${s3.id}`);
    expect(r.body).toMatchObject({
      status: 'active',
      connection_params: { connection_option: 'aws_credentials', bucket: 'edp-sandbox-101' },
    });
    expect(r.text).not.toContain(String(s3.connection_params.aws_secret_access_key));
    expect(r.body.connection_params).not.toHaveProperty('aws_access_key_id');
    expect((await call('GET', '/api/v3/destinations/nope/connections')).status).toBe(404);
    expect((await call('GET', `/api/v3/destinations/bigquery/connections/${s3.id}`)).status).toBe(404);
  });

  it('creates with role_chaining: read-only service role fields on GET', async () => {
    const r = await create({
      connection_option: 'role_chaining',
      bucket: 'lake',
      assume_role_arn: 'arn:aws:iam::123456789012:role/edp',
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('active');
    expect(r.body.connection_params.service_assume_role_arn).toMatch(/^arn:aws:iam::/);
    expect(r.body.connection_params.service_assume_role_externalid).toBeTruthy();
    expect(
      sb.store.state.events.some(
        (e) => e.type === 'destination_connection_created' && e.data.destination_connection_id === String(r.body.id),
      ),
    ).toBe(true);
  });

  it('creates with chunked parquet files', async () => {
    const r = await create({
      bucket: 'lake',
      ...KEYS,
      max_file_size_mb: 45,
      filename: '{{table_name}}/{{date}}_{{chunk_id}}.parquet',
      file_format: 'parquet',
    });
    expect(r.status).toBe(201);
    expect(r.body.connection_params.max_file_size_mb).toBe(45);
  });

  it.each([
    ['an unknown connection_option', { connection_option: 'magic', bucket: 'b' }, 'connection_option'],
    ['aws_credentials without keys', { bucket: 'b' }, 'aws_access_key_id'],
    ['keys with bucket_policy', { connection_option: 'bucket_policy', bucket: 'b', ...KEYS }, 'aws_credentials'],
    ['role_chaining without assume_role_arn', { connection_option: 'role_chaining', bucket: 'b' }, 'assume_role_arn'],
    [
      'a malformed role ARN',
      { connection_option: 'role_chaining', bucket: 'b', assume_role_arn: 'role/x' },
      'assume_role_arn',
    ],
    [
      'assume_role_arn with aws_credentials',
      { bucket: 'b', ...KEYS, assume_role_arn: 'arn:aws:iam::123456789012:role/edp' },
      'role_chaining',
    ],
    [
      'max_file_size_mb below 45',
      { bucket: 'b', ...KEYS, max_file_size_mb: 44, filename: '{{chunk_id}}', file_format: 'parquet' },
      '45',
    ],
    [
      'max_file_size_mb above 100000',
      { bucket: 'b', ...KEYS, max_file_size_mb: 100001, filename: '{{chunk_id}}', file_format: 'parquet' },
      '100000',
    ],
    [
      'chunks without {{chunk_id}}',
      { bucket: 'b', ...KEYS, max_file_size_mb: 100, filename: 'x.parquet', file_format: 'parquet' },
      'chunk_id',
    ],
    [
      'chunks as csv',
      { bucket: 'b', ...KEYS, max_file_size_mb: 100, filename: '{{chunk_id}}.csv', file_format: 'csv' },
      'parquet',
    ],
    ['an unknown parameter', { bucket: 'b', ...KEYS, colour: 'red' }, 'colour'],
    ['a read-only parameter', { bucket: 'b', ...KEYS, service_assume_role_arn: 'x' }, 'read-only'],
    ['a missing bucket', { ...KEYS }, 'bucket'],
  ])('refuses %s with 400 and creates nothing', async (_name, params, mention) => {
    const before = sb.store.state.destination_connections.length;
    const r = await create(params);
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain(mention);
    expect(JSON.stringify(r.body)).not.toContain(KEYS.aws_secret_access_key);
    expect(sb.store.state.destination_connections.length).toBe(before);
  });

  describe('PUT', () => {
    it('merges per field, keeps the rest, and re-checks', async () => {
      const c = (await create({ bucket: 'lake', region: 'eu-west-1', ...KEYS })).body;
      const checksBefore = sb.store.state.events.filter((e) => e.type === 'destination_connection_check_run').length;
      const r = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { path_prefix: 'exports/' },
      });
      expect(r.status).toBe(200);
      expect(r.body.connection_params).toMatchObject({ bucket: 'lake', region: 'eu-west-1', path_prefix: 'exports/' });
      const stored = sb.store.state.destination_connections.find((d) => d.id === c.id)!;
      expect(stored.connection_params.aws_secret_access_key).toBe(KEYS.aws_secret_access_key);
      expect(sb.store.state.events.filter((e) => e.type === 'destination_connection_check_run').length).toBe(
        checksBefore + 1,
      );
    });

    it('takes secret fields all together or none', async () => {
      const c = (await create({ bucket: 'lake', ...KEYS })).body;
      const half = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { aws_secret_access_key: 'new' },
      });
      expect(half.status).toBe(400);
      expect(half.body.detail).toContain('aws_access_key_id');
      const both = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { aws_access_key_id: 'AKIANEW', aws_secret_access_key: 'new' },
      });
      expect(both.status).toBe(200);
      expect(
        sb.store.state.destination_connections.find((d) => d.id === c.id)!.connection_params.aws_secret_access_key,
      ).toBe('new');
      expect(
        sb.store.state.events.some(
          (e) => e.type === 'secret_key_changed' && e.data.destination_connection_id === String(c.id),
        ),
      ).toBe(true);
    });

    it('refuses unknown names (400), checks the merged rules, and a failing check turns the status to error', async () => {
      const c = (await create({ bucket: 'lake', ...KEYS })).body;
      expect(
        (await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, { connection_params: { colour: 'red' } }))
          .status,
      ).toBe(400);
      const chunk = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { max_file_size_mb: 100 },
      });
      expect(chunk.status).toBe(400);
      expect(chunk.body.detail).toContain('chunk_id');
      const bad = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { bucket: 'invalid-bucket' },
      });
      expect(bad.body).toMatchObject({ status: 'error', error_text: expect.stringContaining('invalid-bucket') });
      const fixed = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { bucket: 'lake' },
      });
      expect(fixed.body).toMatchObject({ status: 'active', error_text: null });
    });

    it('switching to bucket_policy drops the keys', async () => {
      const c = (await create({ bucket: 'lake', ...KEYS })).body;
      const r = await call('PUT', `/api/v3/destinations/s3/connections/${c.id}`, {
        connection_params: { connection_option: 'bucket_policy' },
      });
      expect(r.status).toBe(200);
      expect(sb.store.state.destination_connections.find((d) => d.id === c.id)!.connection_params).not.toHaveProperty(
        'aws_secret_access_key',
      );
    });
  });

  it('PATCH renames; parameters there are refused', async () => {
    const s3 = demo(sb).s3;
    const r = await call('PATCH', `/api/v3/destinations/s3/connections/${s3.id}`, { title: 'Warehouse' });
    expect(r.body.title).toBe('Warehouse');
    expect(
      (await call('PATCH', `/api/v3/destinations/s3/connections/${s3.id}`, { connection_params: {} })).status,
    ).toBe(400);
  });

  it('rechecks', async () => {
    const s3 = demo(sb).s3;
    const r = await call('PUT', `/api/v3/destinations/s3/connections/${s3.id}/recheck`);
    expect(r.status).toBe(200);
    expect(r.body.last_checked_at).toBeTruthy();
    expect((await call('POST', `/api/v3/destinations/s3/connections/${s3.id}/recheck`)).status).toBe(405);
  });
});

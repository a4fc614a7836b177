import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { destinationConnections, SECRET } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 });
const { edp, stored, lake } = destinationConnections(t);

describe('edp destinations connections update', () => {
  it('merges parameters (PUT), keeping the rest and the secret, and re-checks', async () => {
    const id = await lake();
    const r = await edp([
      'destinations',
      'connections',
      'update',
      String(id),
      '--destination',
      's3',
      '--path-prefix',
      'exports/',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().connection_params).toMatchObject({ bucket: 'lake', region: 'eu-west-1', path_prefix: 'exports/' });
    expect(r.json().last_checked_at).toBeTruthy();
    expect(stored(id).connection_params.aws_secret_access_key).toBe(SECRET);
  });

  it('renames with --title alone (PATCH)', async () => {
    const id = await lake();
    const checked = stored(id).last_checked_at;
    const r = await edp([
      'destinations',
      'connections',
      'update',
      String(id),
      '--destination',
      's3',
      '--title',
      'Renamed',
      '--json',
    ]);
    expect(r.json().title).toBe('Renamed');
    expect(stored(id).last_checked_at).toBe(checked);
  });

  it('checks the S3 rules against the current parameters before sending (exit 2)', async () => {
    const id = await lake();
    const before = JSON.stringify(stored(id));
    const chunks = await edp([
      'destinations',
      'connections',
      'update',
      String(id),
      '--destination',
      's3',
      '--max-file-size-mb',
      '100',
    ]);
    expect(chunks.code).toBe(2);
    expect(chunks.stderr).toContain('{{chunk_id}}');
    const halfKeys = await edp(
      ['destinations', 'connections', 'update', String(id), '--destination', 's3', '--secret-stdin'],
      { stdin: 'new' },
    );
    expect(halfKeys.code).toBe(2);
    expect((await edp(['destinations', 'connections', 'update', String(id), '--destination', 's3'])).code).toBe(2);
    expect(JSON.stringify(stored(id))).toBe(before);
  });

  it('rotates both keys together', async () => {
    const id = await lake();
    const r = await edp(
      [
        'destinations',
        'connections',
        'update',
        String(id),
        '--destination',
        's3',
        '--aws-access-key-id',
        'AKIA2',
        '--secret-stdin',
      ],
      { stdin: 'rotated' },
    );
    expect(r.code).toBe(0);
    expect(stored(id).connection_params).toMatchObject({
      aws_access_key_id: 'AKIA2',
      aws_secret_access_key: 'rotated',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { connectionRows } from '../../../src/commands/destinations/shared/show.js';
import { SECRET } from './fixtures.js';

describe('destinations connections: the human view', () => {
  it('masks secret parameters in the human view, should a service return them', () => {
    const rows = Object.fromEntries(
      connectionRows('s3', {
        id: 1,
        connection_params: {
          bucket: 'b',
          aws_access_key_id: 'AKIA',
          aws_secret_access_key: SECRET,
          vendor_password: 'p',
        },
      }),
    );
    expect(rows['connection_params.bucket']).toBe('b');
    expect(rows['connection_params.aws_access_key_id']).toBe('********');
    expect(rows['connection_params.aws_secret_access_key']).toBe('********');
    expect(rows['connection_params.vendor_password']).toBe('********');
  });
});

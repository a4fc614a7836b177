import { describe, expect, it } from 'vitest';
import { cli, http, useSandbox } from '../../helpers.js';

const t = useSandbox();

const sentRequests = async () =>
  (await http(t.sb, 'GET', '/_sandbox/requests')).body.results.filter((e: any) => !e.path.startsWith('/_sandbox'));

describe('edp destinations connections --file', () => {
  it('a document that is not an object of parameters is exit 2 naming the field, and nothing is sent', async () => {
    await http(t.sb, 'DELETE', '/_sandbox/requests');
    for (const [doc, field] of [
      ['[1, 2]', 'standard input:1:1: must be an object of connection parameters'],
      ['{"connection_params": 5, "title": "Lake"}', 'standard input:1:2: connection_params: must be an object'],
    ]) {
      const argv = ['-w', '101', 'destinations', 'connections', 'create', '--destination', 's3', '--file', '-'];
      const r = await cli(t.sb, argv, { stdin: doc });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--file standard input is not a valid destination connection:');
      expect(r.stderr).toContain(field);
    }
    expect(await sentRequests()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { cli, freshConfig } from '../../helpers.js';

/** A password given as an argument is refused by the parser; the refusal names --password-stdin and never repeats the value. */
const SECRET = 'hunter2-not-for-history';

describe('edp auth login --password VALUE', () => {
  for (const argv of [
    ['auth', 'login', '--username', 'ops@agency.example', '--password', SECRET],
    ['auth', 'login', '--password=' + SECRET, '--username', 'ops@agency.example'],
  ]) {
    it(`${argv[2]!.startsWith('--password=') ? '--password=VALUE' : '--password VALUE'}: did you mean --password-stdin, and why`, async () => {
      const { env } = freshConfig();
      const r = await cli({ url: 'http://127.0.0.1:9' }, argv, { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("unknown option '--password");
      expect(r.stderr).toContain(
        '(Did you mean --password-stdin? A password is never taken as an argument, which the shell\'s history and the process list would keep: pipe it in, `printf %s "$PASSWORD" | edp auth login --username ops@agency.example --password-stdin`)',
      );
      expect(r.stderr).not.toContain(SECRET);
    });
  }

  it('the same for --secret on a verb that takes --secret-stdin; other unknown options are left as they were', async () => {
    const s = await cli({ url: 'http://127.0.0.1:9' }, [
      'destinations',
      'connections',
      'create',
      '--destination',
      's3',
      '--title',
      'Lake',
      '--secret',
      SECRET,
    ]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('(Did you mean --secret-stdin? A secret is never taken as an argument');
    expect(s.stderr).not.toContain(SECRET);
    const other = await cli({ url: 'http://127.0.0.1:9' }, ['auth', 'login', '--passwd', 'x']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("unknown option '--passwd'");
    expect(other.stderr).not.toContain('is never taken as an argument');
  });
});

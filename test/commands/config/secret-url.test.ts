import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, freshConfig } from '../../helpers.js';
import { displayUrl } from '../../../src/util/display-url.js';

// A base URL may carry user:password; wherever the tool prints the address, the password is `***`.

describe('a password inside the base URL is never printed', () => {
  it('displayUrl masks only the password, and leaves anything else as written', () => {
    expect(displayUrl('https://ops:hunter2@edp.example.com')).toBe('https://ops:***@edp.example.com');
    expect(displayUrl('https://ops:hunter2@edp.example.com/base/')).toBe('https://ops:***@edp.example.com/base/');
    expect(displayUrl('https://ops@edp.example.com')).toBe('https://ops@edp.example.com');
    expect(displayUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(displayUrl('not a url @ all')).toBe('not a url @ all');
  });

  it('config list, config get, auth status and auth status --all', async () => {
    const config = freshConfig();
    const url = 'http://ops:hunter2@127.0.0.1:9';
    writeFileSync(
      config.file,
      JSON.stringify({ profiles: { default: { base_url: url, username: 'a@example.com', password: 'pw' } } }),
    );
    const env = { ...config.env, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
    const runs = [
      ['config', 'list'],
      ['config', 'list', '--json'],
      ['config', 'get', 'base_url'],
      ['config', 'get', 'base_url', '--json'],
      ['auth', 'status', '--offline'],
      ['auth', 'status', '--offline', '--json'],
      ['auth', 'status', '--all'],
      ['auth', 'status', '--all', '--json'],
    ];
    for (const argv of runs) {
      const r = await cli(undefined, argv, { env });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, argv.join(' ')).not.toContain('hunter2');
      expect(r.stdout, argv.join(' ')).toContain('ops:***@127.0.0.1:9');
    }
    // Through the environment too.
    const fromEnv = await cli(undefined, ['config', 'get', 'base_url'], {
      env: { ...env, EDP_BASE_URL: 'https://x:y2k@edp.example.com' },
    });
    expect(fromEnv.stdout).toBe('https://x:***@edp.example.com\n');
  });
});

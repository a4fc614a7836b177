import { describe, expect, it } from 'vitest';
import type { Output } from '../../src/output/output.js';
import { warnIfSentInClear } from '../../src/output/clear-text.js';
import { cli, control, freshConfig, tokenFor, useSandbox, USERNAME, PASSWORD } from '../helpers.js';

// Credentials sent over plain http to another machine can be read on the way: every run that
// sends some says so once on stderr, before the first request, whichever credentials they are.

let answered = 0;
const t = useSandbox({ onAnswer: () => void answered++ });
/** 0.0.0.0 is no loopback address, yet a connection to it reaches this machine's sandbox. */
const remote = () => t.sb.url.replace('127.0.0.1', '0.0.0.0');
const WARNING = 'is plain http to another machine';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('a service address that is plain http to another machine', () => {
  it('is named once on stderr before the user name and password are first sent, with --quiet and --json too', async () => {
    await control(t.sb, 'DELETE', '/requests');
    // How many requests the sandbox had answered when the warning appeared.
    let before: number | undefined;
    const start = answered;
    const r = await cli({ url: remote() }, ['-w', '101', '--quiet', '--json', 'recipes', 'list'], {
      onStderr: (text) => {
        if (before === undefined && text.includes(WARNING)) before = answered - start;
      },
    });
    expect(before).toBe(0);
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(r.json())).toBe(true);
    expect(count(r.stderr, WARNING)).toBe(1);
    expect(r.stderr).toContain(
      `${remote()} is plain http to another machine: the user name and password will cross the network unencrypted; use https:// if the service offers it`,
    );
    const { results } = (await control(t.sb, 'GET', '/requests')) as { results: Array<{ auth: string }> };
    // A token issued with Basic, then the list read with it: both sent after the one warning.
    expect(results.map((q) => q.auth)).toEqual(['basic', 'bearer']);
  });

  it('is named for a token given in EDP_TOKEN', async () => {
    const token = await tokenFor(t.sb, 101);
    const r = await cli({ url: remote() }, ['recipes', 'list', '--json'], {
      env: { EDP_TOKEN: token, EDP_WORKSPACE: '101', EDP_USERNAME: undefined, EDP_PASSWORD: undefined },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(count(r.stderr, WARNING)).toBe(1);
    expect(r.stderr).toContain(': the token will cross the network unencrypted');
  });

  it('is named once by auth login, which warns before asking', async () => {
    const { env } = freshConfig();
    const r = await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], {
      env: { ...env, EDP_BASE_URL: remote() },
      stdin: PASSWORD,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(count(r.stderr, WARNING)).toBe(1);
  });

  it('is not named for loopback, https, or a run with no credentials to send', async () => {
    const local = await cli(t.sb, ['workspaces', 'list', '--json']);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).not.toContain(WARNING);
    const { env } = freshConfig();
    const none = await cli({ url: remote() }, ['workspaces', 'list'], {
      env: { ...env, EDP_USERNAME: undefined, EDP_PASSWORD: undefined },
    });
    expect(none.code).toBe(3);
    expect(none.stderr).not.toContain(WARNING);
  });
});

describe('warnIfSentInClear', () => {
  it('warns once per run, naming what will be sent', () => {
    const warned: string[] = [];
    const output = { warn: (text: string) => warned.push(text) } as unknown as Output;
    warnIfSentInClear(output, 'https://api.example.com', { username: 'a', password: 'b' });
    warnIfSentInClear(output, 'http://localhost:4010', { token: 't' });
    warnIfSentInClear(output, 'http://api.example.com', {});
    expect(warned).toEqual([]);
    warnIfSentInClear(output, 'http://u:secret@api.example.com', { token: 't', sessionId: 's' });
    warnIfSentInClear(output, 'http://api.example.com', { username: 'a', password: 'b' });
    expect(warned).toEqual([
      'http://u:***@api.example.com is plain http to another machine: the token and the session id will cross the network unencrypted; use https:// if the service offers it',
    ]);
    const another = { warn: (text: string) => warned.push(text) } as unknown as Output;
    warnIfSentInClear(another, 'http://api.example.com', 'password');
    expect(warned[1]).toContain(': the user name and password will cross');
  });
});

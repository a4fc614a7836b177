import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayText, retryNoticeText } from '../../src/api/retry.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';

describe('retry notes', () => {
  it('say why, how long, and which attempt; unknown codes as they are', () => {
    const base = { method: 'GET', path: '/api/v3/workspaces', nextAttempt: 2, maxAttempts: 4 };
    expect(
      retryNoticeText({
        ...base,
        cause: { kind: 'status', status: 503, code: 'service_unavailable' },
        delayMs: 30_000,
      }),
    ).toBe('service busy (503); retrying in 30s, attempt 2 of 4 (GET /api/v3/workspaces)');
    expect(
      retryNoticeText({
        ...base,
        cause: { kind: 'status', status: 503, code: 'account_check_unavailable' },
        delayMs: 1500,
      }),
    ).toContain('service busy (503, account_check_unavailable)');
    expect(retryNoticeText({ ...base, cause: { kind: 'network', code: 'ECONNRESET', sent: true }, delayMs: 250 })).toBe(
      'connection reset (ECONNRESET); retrying in 250ms, attempt 2 of 4 (GET /api/v3/workspaces)',
    );
    expect(
      retryNoticeText({ ...base, cause: { kind: 'network', code: 'E_NEW_THING', sent: true }, delayMs: 0 }),
    ).toContain('network error (E_NEW_THING)');
    expect([delayText(0), delayText(1234), delayText(59_600)]).toEqual(['0ms', '1.2s', '60s']);
  });
});

describe('a busy service', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ failRate: 1, retryAfter: 0 });
  });
  afterAll(() => sb.close());

  it('each retry is a note on stderr, piped and at a terminal; the data stream stays clean', async () => {
    for (const tty of [false, true]) {
      const r = await cli(sb, ['workspaces', 'list'], { tty });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const notes = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('service busy (503); pausing every request for 0ms, then attempt'));
      expect(notes.map((l) => /attempt (\d) of 4/.exec(l)?.[1])).toEqual(['2', '3', '4']);
      expect(notes[0]).toContain('(GET /api/v3/workspaces');
      expect(r.stderr).toContain('503');
    }
  });

  it('--quiet keeps the notes back, not the error', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('retrying');
    expect(r.stderr).toContain('503');
  });
});

describe('connections dropped before the answer', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ resetRate: 1 });
  });
  afterAll(() => sb.close());

  it('a read is repeated with a note naming the network fault', async () => {
    const r = await cli(sb, ['workspaces', 'list']);
    expect(r.code).toBe(1);
    const notes = r.stderr.split('\n').filter((l) => l.includes('; retrying in '));
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^(connection reset|connection closed before the answer|network error) \(/);
    expect(notes[2]).toContain('attempt 4 of 4');
  });
});

describe('a note while a spinner draws', () => {
  it("goes above the spinner's line, which is drawn again below it", async () => {
    const { PassThrough } = await import('node:stream');
    const { Output } = await import('../../src/output/output.js');
    const events: string[] = [];
    const stderr = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 120,
      cursorTo: () => (events.push('cursorTo'), true),
      clearLine: () => (events.push('clearLine'), true),
      moveCursor: () => true,
    });
    stderr.on('data', (d) => events.push(String(d)));
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, env: { NO_COLOR: '1' } };
    const output = new Output(io, { json: false, ndjson: false, quiet: false, verbose: false, color: false });
    const spinner = await output.spinner('Waiting for recipe 1 to build');
    output.info('service busy (503); retrying in 30s, attempt 2 of 4 (GET /x)');
    spinner.stop();
    await new Promise((r) => setImmediate(r));
    const note = events.findIndex((e) => e.includes('service busy'));
    expect(note).toBeGreaterThan(0);
    expect(events.slice(0, note)).toContain('clearLine');
    expect(events[note]!.startsWith('service busy')).toBe(true);
    // the spinner's text comes back after the note
    expect(events.slice(note + 1).some((e) => e.includes('Waiting for recipe 1'))).toBe(true);
  });
});

describe('a service slower than --timeout', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ latencyMs: 400 });
  });
  afterAll(() => sb.close());

  it('each repeat of a read that timed out says so in words', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--timeout', '50ms']);
    expect(r.code).toBe(1);
    const notes = r.stderr.split('\n').filter((l) => l.includes('; retrying in '));
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^no answer within --timeout \(TimeoutError\); retrying in \d+ms, attempt 2 of 4/);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/output/io.js';
import { terminalSafe, terminalSafeStyled } from '../../src/output/terminal-text.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';

const tty = { isTTY: true } as any;
const pipe = { isTTY: false } as any;

describe('colour', () => {
  it('follows the terminal, NO_COLOR and --no-color switch it off, FORCE_COLOR on', () => {
    expect(colorLevel(tty, {}, { color: true })).toBeGreaterThan(0);
    expect(colorLevel(pipe, {}, { color: true })).toBe(0);
    expect(colorLevel(tty, { NO_COLOR: '1' }, { color: true })).toBe(0);
    expect(colorLevel(tty, {}, { color: false })).toBe(0);
    expect(colorLevel(pipe, { FORCE_COLOR: '1' }, { color: true })).toBe(1);
    expect(colorLevel(tty, { FORCE_COLOR: '0' }, { color: true })).toBe(0);
    expect(colorLevel(tty, { TERM: 'dumb' }, { color: true })).toBe(0);
  });
});

describe('list output', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('draws a table with a header on a terminal', async () => {
    const r = await cli(sb, ['workspaces', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    const lines = r.stdout.split('\n');
    // gh's layout: no borders, a header, columns two spaces apart.
    expect(lines[0]).toMatch(/^ID {2,}TITLE/);
    expect(r.stdout).not.toMatch(/[┌┐└┘├┤┬┴┼│─]/);
    expect(r.stdout).toContain('Acme Retail');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('--ndjson prints a single object (a detail, a token) as one line too', async () => {
    for (const argv of [
      ['workspaces', 'get', '101'],
      ['token', '-w', '101'],
    ]) {
      const r = await cli(sb, [...argv, '--ndjson']);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout.split('\n'), argv.join(' ')).toHaveLength(2);
      expect(JSON.parse(r.stdout)).toBeTypeOf('object');
    }
  });

  it('prints one JSON array with --json and one object per line with --ndjson', async () => {
    const json = await cli(sb, ['workspaces', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    const nd = await cli(sb, ['workspaces', 'list', '--ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([101, 102, 103]);
  });

  it('keeps stdout for data: notes go to stderr, and --quiet silences them', async () => {
    const r = await cli(sb, ['workspaces', 'enable-recipe', '101', '501']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Enabled recipe');
    const q = await cli(sb, ['workspaces', 'enable-recipe', '101', '501', '-q']);
    expect(q.stderr).toBe('');
  });
});

describe('streamed lists under failure', () => {
  it('prints the items already fetched before reporting a failed page', async () => {
    // A service whose third page fails for good.
    const server = createServer((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      if (page === 3) {
        res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' });
        return res.end('{"detail":"down"}');
      }
      const results = Array.from({ length: 100 }, (_, i) => ({ id: (page - 1) * 100 + i + 1, title: `W${i}` }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ count: 350, next: 'http://x/?page=2', previous: null, results }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await cli({ url }, ['workspaces', 'list', '--ndjson']);
    server.close();
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(200);
    expect(r.stderr).toContain('503');
  });
});

describe('service text cannot drive the terminal', () => {
  const EVIL = 'Evil\u001b]0;pwned\u0007\u001b[2J';
  // ESC, BEL and every other control character but tab and newline (C0, DEL, C1)
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  let sb: Sandbox;
  let id: number;
  beforeAll(async () => {
    sb = await sandbox();
    const created = await cli(sb, ['workspaces', 'create', '--title', EVIL, '--json']);
    expect(created.code).toBe(0);
    id = created.json().id;
  });
  afterAll(() => sb.close());

  it('escapes control characters in tables, piped rows, details and notes; --json keeps the exact title', async () => {
    const table = await cli(sb, ['workspaces', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    const piped = await cli(sb, ['workspaces', 'list']);
    const detail = await cli(sb, ['workspaces', 'get', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    const renamed = await cli(sb, ['workspaces', 'update', String(id), '--title', `${EVIL}\r\u009bX`], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    for (const r of [table, piped, detail, renamed]) {
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(CONTROL);
    }
    expect(table.stdout).toContain('Evil\\x1b]0;pwned\\x07\\x1b[2J');
    expect(detail.stdout).toMatch(/title\s+Evil\\x1b\]0;pwned\\x07\\x1b\[2J/);
    const json = await cli(sb, ['workspaces', 'get', String(id), '--json']);
    expect(json.json().title).toBe(`${EVIL}\r\u009bX`);
    const nd = await cli(sb, ['workspaces', 'list', '--ndjson']);
    expect(
      nd.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).title),
    ).toContain(`${EVIL}\r\u009bX`);
  });

  it('keeps its own colours on a colour terminal, and only those', async () => {
    const r = await cli(sb, ['workspaces', 'list'], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(r.stdout).toMatch(/\u001b\[1m/);
    expect(r.stdout).not.toMatch(/\u0007|\u001b\]|\u001b\[2J/);
  });

  it('escapes service text quoted in error messages; the --json error keeps it exact', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json', 'x-im-trace-id': 't-1' });
      res.end(JSON.stringify({ detail: `Workspace ${EVIL} is locked`, holder: `${EVIL}\u009b31m` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const human = await cli({ url }, ['workspaces', 'get', '101'], { env: { EDP_TOKEN: 'x', EDP_WORKSPACE: '101' } });
      expect(human.code).toBe(6);
      expect(human.stderr).toContain('Workspace Evil\\x1b]0;pwned\\x07\\x1b[2J is locked');
      expect(human.stderr).not.toMatch(CONTROL);
      const machine = await cli({ url }, ['workspaces', 'get', '101', '--json'], {
        env: { EDP_TOKEN: 'x', EDP_WORKSPACE: '101' },
      });
      expect(machine.errorJson().error.message).toBe(`Workspace ${EVIL} is locked`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('terminalSafe', () => {
  it('escapes C0 but tab and newline, DEL and C1; keeps other text', () => {
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalSafe('\u0000\u0007\u001b[2J\r\u007f\u0085\u009b')).toBe('\\x00\\x07\\x1b[2J\\x0d\\x7f\\x85\\x9b');
    expect(terminalSafe('Zürich — 東京 ✓')).toBe('Zürich — 東京 ✓');
  });

  it('keeps colour sequences only when asked, and nothing else', () => {
    const styled = '\u001b[31mred\u001b[39m \u001b]8;;http://x\u0007link\u001b[2J';
    expect(terminalSafeStyled(styled, true)).toBe('\u001b[31mred\u001b[39m \\x1b]8;;http://x\\x07link\\x1b[2J');
    expect(terminalSafeStyled(styled, false)).toBe('\\x1b[31mred\\x1b[39m \\x1b]8;;http://x\\x07link\\x1b[2J');
  });
});

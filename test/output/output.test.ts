import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/output/io.js';
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
    expect(lines.some((l) => /ID\s+│\s+TITLE/.test(l))).toBe(true);
    expect(r.stdout).toContain('Acme Retail');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('prints one JSON array with --json and one object per line with --ndjson', async () => {
    const json = await cli(sb, ['workspaces', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    const nd = await cli(sb, ['workspaces', 'list', '--ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([101, 102, 103]);
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

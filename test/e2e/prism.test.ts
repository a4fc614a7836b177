import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { freePort } from '../fixtures/webhooks.js';
import { http, sandbox, tempDir } from '../helpers.js';
import { ROOT, operatorEnv, requireBuild, runEdp, type EdpRun } from './helpers.js';

/**
 * The document, the sandbox and the built CLI judged by a tool nobody here wrote: Stoplight's
 * Prism, started on the sandbox's own OpenAPI document, as
 * - a validating proxy in front of the sandbox: every request the CLI sends and every answer
 *   the sandbox gives must match the document, or Prism answers 422 (request) or 500
 *   (answer) in their place;
 * - a mock server answering from the document alone: answers shaped as the contract allows and
 *   unlike the sandbox's (`"string"`, ids of 1, empty lists), which the CLI must read, and with
 *   random content the document allows (counts in the millions, links to other hosts), which it
 *   must read or refuse clearly, never crash on.
 */

const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const dir = tempDir('edp-e2e-prism-');
const started: ChildProcess[] = [];
let sb: Sandbox;
let proxy: string;
let mock: string;
let randomMock: string;

/** Starts Prism with `args` on a free port; resolves with its address once it listens. */
async function startPrism(args: string[]): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, ...args, '-h', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const seen = (d: Buffer) => {
      log += d.toString();
      if (log.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`prism ${args[0]} ended (${code}) before listening:\n${log}`)));
  });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
  const doc = join(dir.dir, 'openapi.json');
  writeFileSync(doc, await (await fetch(`${sb.url}/_sandbox/openapi.json`)).text());
  [proxy, mock, randomMock] = await Promise.all([
    startPrism(['proxy', doc, sb.url, '--errors']),
    startPrism(['mock', doc]),
    // Random content the document allows: huge counts, any text, links to anywhere (seeded).
    startPrism(['mock', doc, '--dynamic', '--seed', '7']),
  ]);
}, 90_000);

afterAll(async () => {
  for (const child of started) child.kill();
  await sb?.close();
  dir.remove();
});

const edp = (base: string, config: string, argv: string[]): Promise<EdpRun> =>
  runEdp(argv, { env: operatorEnv(base, join(dir.dir, config)) });

/** What a run printed, for a failed expectation's message. */
const shown = (argv: string[], r: EdpRun) => `edp ${argv.join(' ')} → ${r.code}\n${r.stdout}${r.stderr}`;

describe('Prism as a validating proxy in front of the sandbox', () => {
  it('validates: a request the document refuses is answered 422 by the proxy, not the sandbox', async () => {
    const res = await http({ url: proxy }, 'POST', '/api/v3/roles/', { basic: true, body: { title: 5 } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('permissions');
  });

  it('passes every request the CLI sends and every answer the sandbox gives, writes included', async () => {
    const runs: string[][] = [
      // first: the endpoint made below is unverified, which the doctor would report (exit 1)
      ['-w', '101', 'doctor'],
      ['workspaces', 'list'],
      ['workspaces', 'get', '101'],
      ['-w', '101', 'datasources', 'list'],
      ['-w', '101', 'connections', 'list', '--data-source', 'google_ads'],
      ['-w', '101', 'accounts', 'list', '--connection', '1001', '--remote'],
      ['-w', '101', 'accounts', 'disable', '20002', '--connection', '1001'],
      ['-w', '101', 'accounts', 'enable', '20002', '--connection', '1001'],
      ['-w', '101', 'extracts', 'list'],
      ['-w', '101', 'extracts', 'get', '40001'],
      ['-w', '101', 'tables', 'get', '5001'],
      ['-w', '101', 'loads', 'list'],
      ['-w', '101', 'destinations', 'list'],
      ['-w', '101', 'recipes', 'templates'],
      ['-w', '101', 'recipes', 'list'],
      ['-w', '101', 'links', 'create', '--data-source', 'google_ads', '--to', 'owner@client.example'],
      ['-w', '101', 'links', 'list', '--data-source', 'google_ads'],
      ['-w', '101', 'webhooks', 'create', '--url', 'https://hooks.example.com/edp', '--events', 'account_created'],
      ['-w', '101', 'webhooks', 'list'],
      ['roles', 'permissions'],
      ['roles', 'create', '--title', 'Prism checked', '--permission', 'WORKSPACE:VIEW'],
      ['roles', 'list'],
    ];
    for (const argv of runs) {
      const r = await edp(proxy, 'proxy', argv);
      expect(r.code, shown(argv, r)).toBe(0);
    }
  }, 120_000);
});

/** Reads of every kind of answer the document declares. */
const READS: string[][] = [
  ['workspaces', 'list'],
  ['workspaces', 'get', '7'],
  ['-w', '7', 'connections', 'list', '--data-source', 'google_ads'],
  ['-w', '7', 'accounts', 'list', '--connection', '5', '--remote'],
  ['-w', '7', 'extracts', 'list'],
  ['-w', '7', 'extracts', 'get', '4'],
  ['-w', '7', 'extract-templates', 'get', '5', '--data-source', 'google_ads'],
  ['-w', '7', 'tables', 'get', '4'],
  ['-w', '7', 'loads', 'get', '4'],
  ['-w', '7', 'links', 'list', '--data-source', 'google_ads'],
  ['-w', '7', 'recipes', 'templates'],
  ['-w', '7', 'recipes', 'list'],
  ['-w', '7', 'recipes', 'get', '12'],
  ['-w', '7', 'recipes', 'extractions', '12'],
  ['-w', '7', 'webhooks', 'list'],
  ['-w', '7', 'webhooks', 'get', '3'],
  ['roles', 'list'],
  ['roles', 'get', '4'],
  ['roles', 'permissions'],
];

describe('Prism as a mock server answering from the document alone', () => {
  it('every read shows what came: no error, nothing undefined', async () => {
    for (const argv of READS) {
      for (const format of [[], ['--json']]) {
        const r = await edp(mock, 'mock', [...argv, ...format]);
        const text = shown([...argv, ...format], r);
        expect(r.code, text).toBe(0);
        expect(r.stdout, text).not.toMatch(/undefined|NaN|\[object Object\]/);
        // stderr carries notes for a person (an empty list, a never-built recipe), never an error
        expect(r.stderr, text).not.toMatch(/error|undefined/i);
      }
    }
  }, 120_000);

  it('with random content the document allows, every read shows it or refuses it in one clear line', async () => {
    for (const argv of READS) {
      const r = await edp(randomMock, 'random', argv);
      const text = shown(argv, r);
      expect([0, 1], text).toContain(r.code);
      if (r.code === 1) expect(r.stderr, text).toMatch(/^error: /m);
      expect(r.stderr, text).not.toMatch(/TypeError|^\s+at /m);
      expect(r.stdout + r.stderr, text).not.toMatch(/undefined|NaN|\[object Object\]/);
    }
  }, 120_000);
});

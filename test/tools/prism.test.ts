import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../src/fleet/pool.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { PASSWORD, USERNAME, http, sandbox, tempDir } from '../helpers.js';
import { runBuiltInProcess } from '../e2e/built-in-process.js';
import { requireBuild, type EdpRun } from '../e2e/helpers.js';
import { startPrism, type PrismServer, type PrismServers } from '../e2e/prism.js';

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
 * Prism's servers run in this process (./prism.ts), and so does the built command line: the
 * bundle of dist/ (./built-in-process.ts), whose requests and reads are what is judged here, not
 * its process (test/e2e/cli.test.ts and the others run that). Runs go a few at a time, in their
 * order where it matters.
 */

const dir = tempDir('edp-e2e-prism-');
const SERVERS: PrismServer[] = ['proxy', 'mock', 'randomMock'];
let sb: Sandbox;
let prism: PrismServers;

/** The environment of runs against one server: a config folder of their own. */
const envOf = (server: PrismServer) => ({ EDP_BASE_URL: prism[server], EDP_CONFIG_DIR: join(dir.dir, server) });
const edp = (server: PrismServer, argv: string[]): Promise<EdpRun> => runBuiltInProcess(argv, { env: envOf(server) });

/** What a run printed, for a failed expectation's message. */
const shown = (argv: string[], r: EdpRun) => `edp ${argv.join(' ')} → ${r.code}\n${r.stdout}${r.stderr}`;

beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
  const doc = join(dir.dir, 'openapi.json');
  writeFileSync(doc, await (await fetch(`${sb.url}/_sandbox/openapi.json`)).text());
  prism = await startPrism(doc, sb.url);
  // A profile signed in through each server (login's check of the credentials goes through it
  // too); the runs below use it, as an operator's would.
  const login = ['auth', 'login', '--username', USERNAME, '--password-stdin'];
  await Promise.all(
    SERVERS.map(async (server) => {
      const r = await runBuiltInProcess(login, { env: envOf(server), stdin: PASSWORD });
      if (r.code !== 0) throw new Error(`${server}: ${shown(login, r)}`);
    }),
  );
}, 90_000);

afterAll(async () => {
  await prism?.close();
  await sb?.close();
  dir.remove();
});

/**
 * A few runs at once (`pool` keeps the results in the order of the runs, so expectations are
 * checked in that order). The runs, Prism and the sandbox share this thread, so this overlaps
 * only their waits on the sockets: measured, it costs the same as one run at a time.
 */
const RUNS_AT_ONCE = 3;

describe('Prism as a validating proxy in front of the sandbox', () => {
  it('validates: a request the document refuses is answered 422 by the proxy, not the sandbox', async () => {
    const res = await http({ url: prism.proxy }, 'POST', '/api/v3/roles/', { basic: true, body: { title: 5 } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('permissions');
  });

  it('passes every request the CLI sends and every answer the sandbox gives, writes included', async () => {
    // First, alone: the endpoint made below is unverified, which the doctor would report (exit 1).
    const doctor = ['-w', '101', 'doctor'];
    const first = await edp('proxy', doctor);
    expect(first.code, shown(doctor, first)).toBe(0);
    // Then these sequences side by side, each in its order: a change before the list that shows it.
    const sequences: string[][][] = [
      [['workspaces', 'list']],
      [['workspaces', 'get', '101']],
      [['-w', '101', 'datasources', 'list']],
      [['-w', '101', 'connections', 'list', '--data-source', 'google_ads']],
      [
        ['-w', '101', 'accounts', 'list', '--connection', '1001', '--remote'],
        ['-w', '101', 'accounts', 'disable', '20002', '--connection', '1001'],
        ['-w', '101', 'accounts', 'enable', '20002', '--connection', '1001'],
      ],
      [['-w', '101', 'extracts', 'list']],
      [['-w', '101', 'extracts', 'get', '40001']],
      [['-w', '101', 'tables', 'get', '5001']],
      [['-w', '101', 'loads', 'list']],
      [['-w', '101', 'destinations', 'list']],
      [['-w', '101', 'recipes', 'templates']],
      [['-w', '101', 'recipes', 'list']],
      [
        ['-w', '101', 'links', 'create', '--data-source', 'google_ads', '--to', 'owner@client.example'],
        ['-w', '101', 'links', 'list', '--data-source', 'google_ads'],
      ],
      [
        ['-w', '101', 'webhooks', 'create', '--url', 'https://hooks.example.com/edp', '--events', 'account_created'],
        ['-w', '101', 'webhooks', 'list'],
      ],
      [['roles', 'permissions']],
      [
        ['roles', 'create', '--title', 'Prism checked', '--permission', 'WORKSPACE:VIEW'],
        ['roles', 'list'],
      ],
    ];
    const done = await pool(sequences, RUNS_AT_ONCE, async (sequence) => {
      const runs: [string[], EdpRun][] = [];
      for (const argv of sequence) runs.push([argv, await edp('proxy', argv)]);
      return runs;
    });
    for (const [argv, r] of done.flat()) expect(r.code, shown(argv, r)).toBe(0);
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
    const argvs = READS.flatMap((argv) => [argv, [...argv, '--json']]);
    const runs = await pool(argvs, RUNS_AT_ONCE, (argv) => edp('mock', argv));
    argvs.forEach((argv, i) => {
      const r = runs[i]!;
      const text = shown(argv, r);
      expect(r.code, text).toBe(0);
      expect(r.stdout, text).not.toMatch(/undefined|NaN|\[object Object\]/);
      // stderr carries notes for a person (an empty list, a never-built recipe), never an error
      expect(r.stderr, text).not.toMatch(/error|undefined/i);
    });
  }, 120_000);

  it('with random content the document allows, every read shows it or refuses it in one clear line', async () => {
    const runs = await pool(READS, RUNS_AT_ONCE, (argv) => edp('randomMock', argv));
    READS.forEach((argv, i) => {
      const r = runs[i]!;
      const text = shown(argv, r);
      expect([0, 1], text).toContain(r.code);
      if (r.code === 1) expect(r.stderr, text).toMatch(/^error: /m);
      expect(r.stderr, text).not.toMatch(/TypeError|^\s+at /m);
      expect(r.stdout + r.stderr, text).not.toMatch(/undefined|NaN|\[object Object\]/);
    });
  }, 120_000);
});

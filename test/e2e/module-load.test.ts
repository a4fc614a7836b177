import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../helpers.js';
import { operatorEnv, requireBuild, ROOT, runEdp } from './helpers.js';

// What the built tool loads for `edp --help` and for a read (`workspaces list`): the Node
// built-in modules its code requires, the files of the package it reads, and the source modules
// of the bundle whose code runs. Start-up time is what loads: a module new on either path fails
// here, and is either kept off that path or added to the expected list on purpose
// (EDP_WRITE_MODULE_LOAD=1 rewrites test/e2e/module-load.expected.json; review its diff).

const EXPECTED = join(ROOT, 'test/e2e/module-load.expected.json');
const RECORDER = join(ROOT, 'test/e2e/fixtures/record-modules.cjs');
/** The launcher's wrapper around dist/cli.cjs (bin/edp.js loadCommonJs): V8's offsets count it. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

interface Loaded {
  builtins: string[];
  files: string[];
  /** the bundle's source modules (paths as in its source map) some of whose code ran */
  sources: string[];
}

const work = mkdtempSync(join(tmpdir(), 'edp-e2e-modules-'));
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox();
});
afterAll(async () => {
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Decodes a source map's `mappings`: each segment's generated line and column and its source. */
function* segments(mappings: string): Generator<{ line: number; column: number; source: number }> {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let source = 0;
  const lines = mappings.split(';');
  for (let line = 0; line < lines.length; line++) {
    let column = 0;
    for (const segment of lines[line]!.split(',')) {
      if (!segment) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0]!;
      if (values.length >= 4) {
        source += values[1]!;
        yield { line, column, source };
      }
    }
  }
}

/** A source of the map as the list names it: from node_modules/ on, or from the checkout's root. */
function sourceName(path: string): string {
  const dependency = path.indexOf('node_modules/');
  return dependency >= 0 ? path.slice(dependency) : path.replace(/^(\.\.\/)+/, '');
}

/** The sources of dist/cli.cjs with code that ran, from V8's coverage of the run in `dir`. */
function ranSources(dir: string): string[] {
  const file = join(ROOT, 'dist/cli.cjs');
  const url = pathToFileURL(file).href;
  type Range = { startOffset: number; endOffset: number; count: number };
  const ranges: Range[] = [];
  for (const name of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
      result: Array<{ url: string; functions: Array<{ ranges: Range[] }> }>;
    };
    for (const script of result)
      if (script.url === file || script.url === url) for (const fn of script.functions) ranges.push(...fn.ranges);
  }
  if (ranges.length === 0) return [];
  const text = readFileSync(file, 'utf8');
  // The count of each offset is that of the innermost range around it: outer ranges first.
  const counts = new Int32Array(WRAPPER.length + text.length + 4);
  for (const r of ranges.sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset)))
    counts.fill(r.count, r.startOffset, Math.min(r.endOffset, counts.length));
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const ran = new Set<string>();
  for (const { line, column, source } of segments(map.mappings)) {
    if (counts[WRAPPER.length + lineStarts[line]! + column]! > 0) ran.add(sourceName(map.sources[source]!));
  }
  return [...ran].sort();
}

/** Runs edp with the recorder and V8's coverage; what loaded. */
async function loaded(argv: string[], env: Record<string, string | undefined> = {}): Promise<Loaded> {
  const run = mkdtempSync(join(work, 'run-'));
  const coverage = join(run, 'coverage');
  const log = join(run, 'modules.json');
  const r = await runEdp(argv, {
    env: {
      ...env,
      // The run's own code caches: a cold run, the same on every machine.
      XDG_CACHE_HOME: join(run, 'cache'),
      NODE_OPTIONS: `--require ${JSON.stringify(RECORDER)}`,
      NODE_V8_COVERAGE: coverage,
      EDP_MODULE_LOG: log,
    },
  });
  expect(r.code, r.stderr).toBe(0);
  const { builtins, files } = JSON.parse(readFileSync(log, 'utf8')) as Omit<Loaded, 'sources'>;
  return { builtins, files, sources: ranSources(coverage) };
}

const CASES: Record<string, () => Promise<Loaded>> = {
  '--help': () => loaded(['--help']),
  'workspaces list --json': () => loaded(['workspaces', 'list', '--json'], operatorEnv(sb.url, join(work, 'config'))),
};

describe('edp, built: what loads', () => {
  it('--help and workspaces list load the modules of the expected list, no more', async () => {
    const actual: Record<string, Loaded> = {};
    for (const [name, run] of Object.entries(CASES)) actual[name] = await run();
    if (process.env.EDP_WRITE_MODULE_LOAD) writeFileSync(EXPECTED, `${JSON.stringify(actual, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Record<string, Loaded>;
    const differences: string[] = [];
    for (const [name, got] of Object.entries(actual)) {
      for (const kind of ['builtins', 'files', 'sources'] as const) {
        const want = new Set(expected[name]?.[kind] ?? []);
        const have = new Set(got[kind]);
        for (const m of have) if (!want.has(m)) differences.push(`${name}: loads ${m} (${kind}), new`);
        for (const m of want) if (!have.has(m)) differences.push(`${name}: no longer loads ${m} (${kind})`);
      }
    }
    expect(
      differences,
      'What loads at start-up changed. Keep a new module off this path (load it where it is used), ' +
        'or, if it belongs there, rewrite the list with EDP_WRITE_MODULE_LOAD=1 npx vitest run test/e2e/module-load.test.ts ' +
        'and commit the diff of test/e2e/module-load.expected.json.',
    ).toEqual([]);
  });
});

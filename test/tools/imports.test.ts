// The rules dependency-cruiser judges src/ by (.dependency-cruiser.cjs: no cycle across folders,
// imports pointing down), each held to a small tree that breaks it. src/ itself is judged by
// `npm run lint`, which CI runs once.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** dependency-cruiser's command line on `src` of `cwd`, with the project's rules. */
async function depcruise(cwd: string, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [DEPCRUISE, 'src', '--config', CONFIG, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the rules', () => {
  const tree = tempDir('edp-imports-');
  afterAll(() => tree.remove());

  /** A small tree under src/ with what the rules refuse, and what they allow. */
  const files: Record<string, string> = {
    // a cycle across folders, and config importing the API
    'src/api/auth.ts': "import type { ConfigFile } from '../config/store.js';\nexport type Auth = ConfigFile;\n",
    'src/config/store.ts': "import type { Auth } from '../api/auth.js';\nexport interface ConfigFile { auth?: Auth }\n",
    // a cycle within one folder that the config does not list
    'src/api/client.ts': "import type { Retry } from './retry.js';\nexport type Client = Retry;\n",
    'src/api/retry.ts': "import type { Client } from './client.js';\nexport type Retry = Client;\n",
    // util reaching up into a command
    'src/util/text.ts': "import { NAME } from '../commands/x/command.js';\nexport const TEXT = NAME;\n",
    // a command's command.ts and its verb: the cycle the config allows
    'src/commands/x/command.ts':
      "export const NAME = 'x';\nexport interface XOptions { all?: boolean }\nexport const load = () => import('./list.js');\n",
    'src/commands/x/list.ts':
      "import type { XOptions } from './command.js';\nexport const runList = (o: XOptions) => o;\n",
    // the domain reaching into the emulator, and the contract into the API
    'src/fleet/apply.ts': "import { PORT } from '../sandbox/server.js';\nexport const port = PORT;\n",
    'src/sandbox/server.ts': 'export const PORT = 4010;\n',
    'src/contract/operations.ts': "import type { Client } from '../api/client.js';\nexport type C = Client;\n",
    'src/cli.ts': "import { load } from './commands/x/command.js';\nexport const run = load;\n",
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
      include: ['src'],
    }),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree.dir, name)), { recursive: true });
    writeFileSync(join(tree.dir, name), text);
  }
  copyFileSync(join(ROOT, 'package.json'), join(tree.dir, 'package.json'));

  it('refuse cycles across folders and unlisted ones within, and imports that point up', async () => {
    // the error report fails the run (as `npm run lint` uses it); the JSON one tells what was found
    const [err, run] = await Promise.all([
      depcruise(tree.dir, '--output-type', 'err'),
      depcruise(tree.dir, '--output-type', 'json'),
    ]);
    expect(err.code).not.toBe(0);
    const result = JSON.parse(run.stdout) as {
      summary: {
        violations: Array<{ from: string; to: string; rule: { name: string }; cycle?: Array<{ name: string }> }>;
      };
    };
    // a cycle is named by its modules, wherever the tool starts it
    const found = result.summary.violations.map((v) =>
      v.cycle
        ? `${v.rule.name}: ${[...new Set([v.from, ...v.cycle.map((c) => c.name)])].sort().join(' ~ ')}`
        : `${v.rule.name}: ${v.from} -> ${v.to}`,
    );
    expect([...new Set(found)].sort()).toEqual(
      [
        'commands-only-from-cli: src/util/text.ts -> src/commands/x/command.ts',
        'config-points-down: src/config/store.ts -> src/api/auth.ts',
        'contract-points-down: src/contract/operations.ts -> src/api/client.ts',
        'no-circular-across-folders: src/api/auth.ts ~ src/config/store.ts',
        'no-circular: src/api/auth.ts ~ src/config/store.ts',
        'no-circular: src/api/client.ts ~ src/api/retry.ts',
        'sandbox-only-from-its-command: src/fleet/apply.ts -> src/sandbox/server.ts',
        'util-is-the-floor: src/util/text.ts -> src/commands/x/command.ts',
      ].sort(),
    );
  }, 60_000);
});

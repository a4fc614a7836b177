import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { endpointsOf } from '../fixtures/fleet.js';
import { BIN, childEnv, operatorEnv, requireBuild, ROOT, runEdp } from './helpers.js';

// The built command line as a process: a client's workspace created by apply with its entry, a
// value of the environment sent and shown only as (from env NAME), and a saved plan that needs it set again.

const dir = tempDir('edp-e2e-clients-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb.close();
  dir.remove();
});

it('plans, saves and applies a new client with a value from the environment, built', async () => {
  const fleet = join(dir.dir, 'onboard.yaml');
  const saved = join(dir.dir, 'plan.json');
  writeFileSync(
    fleet,
    `clients:
  - title: Umbrella Foods
    vars: {slug: umbrella}
webhooks:
  - url: "https://hooks.example.com/\${var.slug}?key=\${env.HOOK_KEY}"
    events: [recipe_activated]
`,
  );
  const env = (extra: Record<string, string> = {}) => ({ env: operatorEnv(sb.url, join(dir.dir, 'config'), extra) });
  const plan = await runEdp(['plan', '-f', fleet, '--out', saved], env({ HOOK_KEY: 'e2e-key-1' }));
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(
    `workspace "Umbrella Foods" (new):\n  + workspace "Umbrella Foods": create (a client's workspace)\n  + webhook (from env HOOK_KEY): create`,
  );
  const unset = await runEdp(['apply', saved, '--yes', '--json'], env());
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain('HOOK_KEY is not set');
  const apply = await runEdp(['apply', saved, '--yes', '--json'], env({ HOOK_KEY: 'e2e-key-1' }));
  expect(apply.code).toBe(0);
  expect(apply.stdout + apply.stderr).not.toContain('e2e-key-1');
  const created = sb.store.state.workspaces.find((w) => w.title === 'Umbrella Foods')!;
  expect(endpointsOf(sb, created.id).map((e: any) => e.url)).toEqual([
    'https://hooks.example.com/umbrella?key=e2e-key-1',
  ]);
});

it("the guide's onboarding walk-through runs as pasted, in a shell that stops at the first failure, and prints what the guide shows", async () => {
  const guide = readFileSync(join(ROOT, 'docs/guide.md'), 'utf8');
  const section = /^#### Onboard a new client\n([\s\S]*?)\n##/m.exec(guide)![1]!;
  // The shell blocks, then the commands of the block that shows a session (`$ …`) and its output.
  const blocks = [...section.matchAll(/^```(sh|text)\n([\s\S]*?)^```$/gm)];
  const shell = blocks.filter((b) => b[1] === 'sh').map((b) => b[2]!);
  const session = blocks.find((b) => b[1] === 'text')![2]!;
  const typed = session
    .split('\n')
    .filter((l) => l.startsWith('$ '))
    .map((l) => l.slice(2));
  // A sandbox of its own: the other test of this file makes a client of the same title.
  const own = await sandbox({ buildSeconds: 0 });
  onTestFinished(() => own.close());
  const script = [...shell, ...typed.map((c) => `echo '$ ${c}'; ${c}`)]
    .join('\n')
    .replaceAll('http://127.0.0.1:4010', own.url);
  // `edp` on PATH is the built command line, as an installed one is.
  const guideDir = join(dir.dir, 'guide');
  const bin = join(guideDir, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(BIN, join(bin, 'edp'));
  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-c', script], {
      cwd: guideDir,
      env: {
        ...childEnv(operatorEnv(own.url, join(dir.dir, 'guide-config'))),
        PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter),
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
  expect(run.code, run.out).toBe(0);
  // Every line the session shows is printed, in that order (the guide leaves out apply's rows;
  // progress goes to stderr).
  const printed = run.out.split('\n');
  let at = 0;
  for (const line of session.trim().split('\n')) {
    const found = printed.indexOf(line, at);
    expect(found, `${line}\n  not printed after line ${at} of:\n${run.out}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
});

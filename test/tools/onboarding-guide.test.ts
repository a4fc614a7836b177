import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { sandbox, tempDir } from '../helpers.js';
import { BIN, childEnv, operatorEnv, requireBuild, ROOT } from '../e2e/helpers.js';

// docs/guide.md's "Onboard a new client", judged by bash: its shell blocks pasted into a shell
// that stops at the first failure, with the built edp on PATH, against a sandbox; every line of
// the session the guide shows must be printed, in order.

const dir = tempDir('edp-guide-onboarding-');
beforeAll(() => requireBuild());
afterAll(() => dir.remove());

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

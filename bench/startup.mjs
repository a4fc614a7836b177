// Start-up cost of the CLI as a ratio to a bare `node -e 0`, measured in one run:
// `edp --help` and `edp workspaces list --json` against a local sandbox, median of 15
// interleaved runs each (interleaving spreads machine noise evenly over the three).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const sandbox = await startSandbox({ port: 0 });
const env = {
  ...process.env,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: 'agency@sandbox.local',
  EDP_PASSWORD: 'sandbox',
  EDP_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'edp-bench-')),
};

// The sandbox answers from this process, so the CLI runs
// asynchronously while timing covers the child's whole life.
import { spawn } from 'node:child_process';
function time(args) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve(Number(process.hrtime.bigint() - t) / 1e6);
    });
  });
}

const cases = {
  'node -e 0': ['-e', '0'],
  'edp --help': ['bin/edp.js', '--help'],
  'edp workspaces list --json': ['bin/edp.js', 'workspaces', 'list', '--json'],
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const args of Object.values(cases)) await time(args); // warm the file cache
for (let i = 0; i < RUNS; i++) {
  for (const [name, args] of Object.entries(cases)) samples[name].push(await time(args));
}
await sandbox.close();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(samples['node -e 0']);
const targets = { 'edp --help': 1.3, 'edp workspaces list --json': 1.8 };
console.log(`startup, median of ${RUNS} interleaved runs`);
console.log(`  node -e 0                     ${base.toFixed(1)} ms`);
for (const name of Object.keys(targets)) {
  const m = median(samples[name]);
  const ratio = m / base;
  console.log(`  ${name.padEnd(29)} ${m.toFixed(1)} ms  ${ratio.toFixed(2)}x node -e 0  (target <= ${targets[name]}x: ${ratio <= targets[name] ? 'met' : 'NOT met'})`);
}


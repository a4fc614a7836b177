// Start-up of the single executable (scripts/build-binary.mjs), measured in one run: medians of
// interleaved runs of `--version` and `--help` (and `workspaces list --json` against a local
// sandbox) from the binary, from the npm-installed tool (`node bin/edp.js`) and a bare
// `node -e 0`, all under the Node the binary was built from, printed as absolute times and ratios.
// NODE_EXTRA_CA_CERTS is removed from the children's environment (it adds to every Node start).
//
//   node bench/binary.mjs [--binary FILE]...
//
// Without --binary the binary is dist/edp-<platform>-<arch>, built first when missing; given
// more than once, each binary is measured (two builds compared head to head).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox } from '../dist/sandbox.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const { values } = parseArgs({ options: { binary: { type: 'string', multiple: true } } });
const exe = process.platform === 'win32' ? '.exe' : '';
const defaultBinary = `dist/edp-${process.platform}-${process.arch}${exe}`;
const binaries = values.binary ?? [defaultBinary];
if (!values.binary && !existsSync(defaultBinary)) {
  const built = spawnSync(process.execPath, ['scripts/build-binary.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const sandbox = await startSandbox({ port: 0 });
const { NODE_EXTRA_CA_CERTS: _ignored, ...parentEnv } = process.env;
const home = mkdtempSync(join(tmpdir(), 'edp-bench-binary-'));
// Both share one cache folder (their code caches have the same names: the same Node, the same
// build) and one config folder.
const env = {
  ...parentEnv,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: 'agency@sandbox.local',
  EDP_PASSWORD: 'sandbox',
  EDP_CONFIG_DIR: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
};

// Each run's wall time and CPU time (user + system of the child alone), both taken by a small
// python3 around the child (fork, exec, wait4), so that the wrapper's own start counts in
// neither; without python3 the wall time alone, from here. On a loaded machine the CPU time is
// the steadier.
const WAIT4 =
  'import os,sys,time\nt=time.perf_counter()\npid=os.fork()\nif pid==0: os.execv(sys.argv[1],sys.argv[1:])\n' +
  '_,st,ru=os.wait4(pid,0)\nw=time.perf_counter()-t\n' +
  'sys.stderr.write("\\ncpu %f wall %f\\n"%((ru.ru_utime+ru.ru_stime)*1000,w*1000))\nsys.exit(os.waitstatus_to_exitcode(st))';
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', ''], { stdio: 'ignore' }).status === 0);

function time(command, args) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = PYTHON
      ? spawn(PYTHON, ['-c', WAIT4, command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}\n${err}`));
      const measured = /cpu ([\d.]+) wall ([\d.]+)\s*$/.exec(err);
      resolve(
        measured
          ? { wall: Number(measured[2]), cpu: Number(measured[1]) }
          : { wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: NaN },
      );
    });
  });
}

const node = process.execPath;
const commands = {
  '--version': ['--version'],
  '--help': ['--help'],
  'workspaces list --json': ['workspaces', 'list', '--json'],
};
const cases = { 'node -e 0': () => time(node, ['-e', '0']) };
for (const [name, args] of Object.entries(commands)) {
  cases[`node bin/edp.js ${name}`] = () => time(node, ['bin/edp.js', ...args]);
  for (const b of binaries) cases[`${relative('.', b)} ${name}`] = () => time(b, args);
}
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const run of Object.values(cases)) await run(); // the file cache, and the code caches
for (let i = 0; i < RUNS; i++) {
  for (const [name, run] of Object.entries(cases)) samples[name].push(await run());
}
await sandbox.close();
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Medians of a case's wall and CPU times. */
const m = Object.fromEntries(
  Object.entries(samples).map(([k, xs]) => [
    k,
    { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) },
  ]),
);
const ms = (x) => `${x.toFixed(1)} ms`;
const ratio = (a, b) => `${(a.wall / b.wall).toFixed(2)}x (CPU ${(a.cpu / b.cpu).toFixed(2)}x)`;
// A Markdown table, as docs/benchmarks.md shows it.
console.log(`single executable on Node ${process.version}, median of ${RUNS} interleaved runs (wall, CPU)\n`);
console.log('| command | wall | CPU | to `node -e 0` | to `node bin/edp.js` |');
console.log('|---|---|---|---|---|');
const row = (name, x, toNode, toInstalled) =>
  console.log(`| ${name} | ${ms(x.wall)} | ${ms(x.cpu)} | ${toNode} | ${toInstalled} |`);
const bare = m['node -e 0'];
row('`node -e 0`', bare, '', '');
for (const name of Object.keys(commands)) {
  const installed = m[`node bin/edp.js ${name}`];
  row(`\`node bin/edp.js ${name}\``, installed, ratio(installed, bare), '');
  for (const b of binaries) {
    const key = `${relative('.', b)} ${name}`;
    row(`\`${key}\``, m[key], ratio(m[key], bare), ratio(m[key], installed));
  }
}

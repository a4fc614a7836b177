// Head to head: one command line under two builds (or two settings) of edp, in interleaved
// pairs, each side with its own cache folder; prints each side's median wall time and the median
// of the pairs' differences; with --cpu, the child's CPU time as well (user + system, all its
// threads, from wait4 through python3), which a busy machine moves far less than wall time. How
// a start-up mechanism is judged (docs/benchmarks.md): a build without it against a build with
// it, on the newest Node.
//   node bench/ab.mjs --a DIR --b DIR [--a-env K=V,...] [--b-env K=V,...] [--node PATH] [--runs N] [--cpu] -- ARGS...
// DIR is a checkout with its own dist/ (default: this one). ARGS run against a sandbox of this
// checkout's dist/, with an operator's credentials; NODE_EXTRA_CA_CERTS is removed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const argv = process.argv.slice(2);
const end = argv.indexOf('--');
const opts = argv.slice(0, end < 0 ? argv.length : end);
const args = end < 0 ? ['workspaces', 'list', '--json'] : argv.slice(end + 1);
const opt = (name, fallback) => (opts.includes(name) ? opts[opts.indexOf(name) + 1] : fallback);
const envOf = (text) =>
  Object.fromEntries(
    (text ? text.split(',') : []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const NODE = opt('--node', process.execPath);
const RUNS = Number(opt('--runs', 41));
const CPU = opts.includes('--cpu');
// Runs the command and prints its CPU time, in ms, as the last line of stderr.
const WAIT4 =
  'import os,sys\npid=os.fork()\nif pid==0: os.execv(sys.argv[1],sys.argv[1:])\n' +
  '_,st,ru=os.wait4(pid,0)\nsys.stderr.write("\\ncpu %f\\n"%((ru.ru_utime+ru.ru_stime)*1000))\nsys.exit(os.waitstatus_to_exitcode(st))';
const sides = ['a', 'b'].map((s) => ({
  name: s,
  dir: resolve(opt(`--${s}`, '.')),
  env: envOf(opt(`--${s}-env`, '')),
  cache: mkdtempSync(join(tmpdir(), `edp-ab-${s}-`)),
  wall: [],
  cpu: [],
}));

const sandbox = await startSandbox({ port: 0 });
const config = mkdtempSync(join(tmpdir(), 'edp-ab-config-'));
const { NODE_EXTRA_CA_CERTS: _ignored, ...parentEnv } = process.env;

/** One run's wall time and (with --cpu) CPU time, in ms. */
function once(side) {
  return new Promise((done, fail) => {
    const env = {
      ...parentEnv,
      EDP_BASE_URL: sandbox.url,
      EDP_USERNAME: 'agency@sandbox.local',
      EDP_PASSWORD: 'sandbox',
      EDP_CONFIG_DIR: config,
      XDG_CACHE_HOME: side.cache,
      ...side.env,
    };
    const t = process.hrtime.bigint();
    const command = [NODE, join(side.dir, 'bin/edp.js'), ...args];
    const child = CPU
      ? spawn('python3', ['-c', WAIT4, ...command], { env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - t) / 1e6;
      if (code !== 0) return fail(new Error(`${side.dir}: exit ${code}\n${err}`));
      done({ wall, cpu: Number(/cpu ([\d.]+)\s*$/.exec(err)?.[1] ?? NaN) });
    });
  });
}

for (const side of sides) for (let i = 0; i < 3; i++) await once(side); // caches and the file cache warm
const diffs = { wall: [], cpu: [] };
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 ? sides : [...sides].reverse();
  const times = {};
  for (const side of order) times[side.name] = await once(side);
  for (const side of sides) {
    side.wall.push(times[side.name].wall);
    side.cpu.push(times[side.name].cpu);
  }
  diffs.wall.push(times.b.wall - times.a.wall);
  diffs.cpu.push(times.b.cpu - times.a.cpu);
}
await sandbox.close();
for (const side of sides) rmSync(side.cache, { recursive: true, force: true });
rmSync(config, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const version = process.versions.node;
console.log(
  `edp ${args.join(' ')} on ${NODE === process.execPath ? `Node ${version}` : NODE}, ${RUNS} interleaved pairs`,
);
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} ms`;
for (const side of sides) {
  const cpu = CPU ? `, CPU ${median(side.cpu).toFixed(1)} ms` : '';
  const env = Object.keys(side.env).length ? ` ${JSON.stringify(side.env)}` : '';
  console.log(`  ${side.name}: ${median(side.wall).toFixed(1)} ms${cpu}  (${side.dir}${env})`);
}
const cpu = CPU ? `, CPU ${signed(median(diffs.cpu))}` : '';
console.log(`  b - a: ${signed(median(diffs.wall))}${cpu} (medians of the pairs' differences)`);

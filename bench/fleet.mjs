// Fleet deploy: `edp recipes deploy` to one workspace, then to 10 and 20 workspaces with the
// default settings (concurrency and poll interval as a user gets them), then to 20 at
// concurrency 1 and at concurrency 20 with a short poll interval, on a sandbox with
// --latency 20. The 17 workspaces beyond the demo's three are created through the API and
// equipped with the demo's connections, accounts and destination; accounts are named by remote
// id, resolved in each workspace. Prints each as a ratio to the single deploy with the same
// settings (target: 10 workspaces with the defaults within 1.2x of one). Measured in one run;
// no assertions. `--node PATH` runs the command line under another Node binary.
import { spawn, spawnSync } from 'node:child_process';
import { startSandbox } from '../dist/sandbox.js';
import { benchDir, benchEnv, growFleet } from './lib/fleet.mjs';

const nodeAt = process.argv.indexOf('--node');
const NODE = nodeAt >= 0 && process.argv[nodeAt + 1] ? process.argv[nodeAt + 1] : process.execPath;
const LATENCY_MS = 20;
const BUILD_SECONDS = 0.5;
const FLEET = 20;
const ACCOUNTS = 'remote:123-456-7801,remote:123-456-7802,remote:123-456-7803';

const sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, buildSeconds: BUILD_SECONDS });
const workspaces = await growFleet(sandbox, FLEET);

const env = benchEnv(sandbox, benchDir('fleet'));

/** One deploy as a separate process (async, so that the in-process sandbox keeps answering). */
function deploy(ws, concurrency) {
  const tuned = concurrency === undefined ? [] : ['--concurrency', String(concurrency), '--poll-interval', '100ms'];
  const args = [
    'bin/edp.js',
    'recipes',
    'deploy',
    '-w',
    ws.join(','),
    '--template',
    '4001',
    '--data-source',
    'google_ads',
    '--accounts',
    ACCOUNTS,
    ...tuned,
    '--json',
  ];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`deploy exited ${code}\n${err}`));
      const rows = JSON.parse(out);
      const ready = rows.filter((r) => r.state === 'ready_to_work').length;
      resolve({ ms, ready, rows: rows.length });
    });
  });
}

/** Forgets the recipes and their extractions, so that each run deploys from scratch. */
function reset() {
  sandbox.store.state.recipes = [];
  sandbox.store.state.extracts = [];
}

try {
  const results = [];
  const run = async (label, ws, concurrency) => {
    const r = await deploy(ws, concurrency);
    reset();
    results.push({ label, ...r });
    return r;
  };
  const oneDefault = await run('1 workspace, defaults', [101]);
  const ten = await run('10 workspaces, defaults', workspaces.slice(0, 10));
  const twenty = await run(`${FLEET} workspaces, defaults`, workspaces);
  const oneTuned = await run('1 workspace, poll 100ms', [101], 1);
  const serial = await run(`${FLEET} workspaces, concurrency 1`, workspaces, 1);
  const parallel = await run(`${FLEET} workspaces, concurrency ${FLEET}`, workspaces, FLEET);
  const nodeVersion = spawnSync(NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  console.log(
    `fleet deploy on Node ${nodeVersion}; sandbox latency ${LATENCY_MS} ms, build states ${BUILD_SECONDS} s each`,
  );
  for (const r of results)
    console.log(`  ${r.label.padEnd(34)} ${String(Math.round(r.ms)).padStart(6)} ms  ${r.ready}/${r.rows} ready`);
  const ratio = (a, b) => (a.ms / b.ms).toFixed(2);
  console.log(
    `  ratio 10 / 1, defaults:                 ${ratio(ten, oneDefault)}x (target <= 1.2x: ${ten.ms / oneDefault.ms <= 1.2 ? 'met' : 'NOT met'})`,
  );
  console.log(`  ratio ${FLEET} / 1, defaults:                 ${ratio(twenty, oneDefault)}x`);
  console.log(`  ratio ${FLEET} at concurrency 1 / one:       ${ratio(serial, oneTuned)}x`);
  console.log(`  ratio ${FLEET} at concurrency ${FLEET} / one:      ${ratio(parallel, oneTuned)}x`);
} finally {
  await sandbox.close();
}

// Fleet deploy: `edp recipes deploy` to one workspace, then to 20 workspaces at concurrency 1
// and at concurrency 20, on a sandbox with --latency 20. The 17 workspaces beyond the demo's
// three are created through the API and equipped with the demo's connections, accounts and
// destination; accounts are named by remote id, resolved in each workspace. Prints both
// ratios to the single deploy (target: 20 workspaces at concurrency 20 in under 1.5x the time
// of one). Measured in one run; no assertions.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const LATENCY_MS = 20;
const BUILD_SECONDS = 0.5;
const FLEET = 20;
const USERNAME = 'agency@sandbox.local';
const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
const ACCOUNTS = 'remote:123-456-7801,remote:123-456-7802,remote:123-456-7803';

async function json(url, init = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, buildSeconds: BUILD_SECONDS });
const workspaces = [101, 102, 103];
for (let i = workspaces.length; i < FLEET; i++) {
  const ws = await json(`${sandbox.url}/api/v3/workspaces`, { method: 'POST', headers: { authorization: basic }, body: JSON.stringify({ title: `Fleet ${i + 1}` }) });
  await json(`${sandbox.url}/_sandbox/recipes/equip-workspace`, { method: 'POST', body: JSON.stringify({ workspace_id: ws.id }) });
  workspaces.push(ws.id);
}

const env = {
  ...process.env,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: USERNAME,
  EDP_PASSWORD: PASSWORD,
  EDP_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'edp-bench-fleet-')),
};

/** One deploy as a separate process (async, so that the in-process sandbox keeps answering). */
function deploy(ws, concurrency) {
  const args = ['bin/edp.js', 'recipes', 'deploy', '-w', ws.join(','), '--template', '4001', '--data-source', 'google_ads', '--accounts', ACCOUNTS, '--concurrency', String(concurrency), '--poll-interval', '100ms', '--json'];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const one = await deploy([101], 1);
  reset();
  const serial = await deploy(workspaces, 1);
  reset();
  const parallel = await deploy(workspaces, FLEET);
  const line = (label, r) => `${label.padEnd(34)} ${String(Math.round(r.ms)).padStart(6)} ms  ${r.ready}/${r.rows} ready`;
  console.log(`sandbox: latency ${LATENCY_MS} ms, build states ${BUILD_SECONDS} s each`);
  console.log(line('1 workspace', one));
  console.log(line(`${FLEET} workspaces, concurrency 1`, serial));
  console.log(line(`${FLEET} workspaces, concurrency ${FLEET}`, parallel));
  console.log(`ratio ${FLEET} at concurrency 1 / one:  ${(serial.ms / one.ms).toFixed(2)}x`);
  console.log(`ratio ${FLEET} at concurrency ${FLEET} / one: ${(parallel.ms / one.ms).toFixed(2)}x (target < 1.5x)`);
} finally {
  await sandbox.close();
}

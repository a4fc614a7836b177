// Fleet as code: `edp plan` and `edp apply` of one fleet file (a recipe from remote account ids,
// a webhook endpoint, a custom role) over one workspace, then over 20, with the default
// concurrency, on a sandbox with --latency 20. The 17 workspaces beyond the demo's three are
// created through the API and equipped like the demo's. Prints each as a ratio to the same
// command over one workspace. Measured in one run; no assertions.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const LATENCY_MS = 20;
const BUILD_SECONDS = 0.5;
const FLEET = 20;
const USERNAME = 'agency@sandbox.local';
const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

async function json(url, init = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, buildSeconds: BUILD_SECONDS });
const workspaces = [101, 102, 103];
for (let i = workspaces.length; i < FLEET; i++) {
  const ws = await json(`${sandbox.url}/api/v3/workspaces`, {
    method: 'POST',
    headers: { authorization: basic },
    body: JSON.stringify({ title: `Fleet ${i + 1}` }),
  });
  await json(`${sandbox.url}/_sandbox/recipes/equip-workspace`, {
    method: 'POST',
    body: JSON.stringify({ workspace_id: ws.id }),
  });
  workspaces.push(ws.id);
}

const dir = mkdtempSync(join(tmpdir(), 'edp-bench-fleet-plan-'));
const env = {
  ...process.env,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: USERNAME,
  EDP_PASSWORD: PASSWORD,
  EDP_CONFIG_DIR: dir,
};
delete env.NODE_EXTRA_CA_CERTS;

function fleetFile(ws) {
  const file = join(dir, `fleet-${ws.length}.yaml`);
  writeFileSync(
    file,
    `workspaces: [${ws.join(', ')}]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:123-456-7801, remote:123-456-7802, remote:123-456-7803]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated, load_completed]
roles:
  - title: Media Buyer
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
`,
  );
  return file;
}

/** One command as a separate process (async, so that the in-process sandbox keeps answering). */
function edp(args, okCodes = [0]) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/edp.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (!okCodes.includes(code)) return reject(new Error(`edp ${args.join(' ')} exited ${code}\n${err}`));
      resolve(performance.now() - started);
    });
  });
}

/** Back to no recipes, endpoints or extractions, so that each apply starts from scratch. */
function reset() {
  const s = sandbox.store.state;
  s.recipes = [];
  s.extracts = [];
  s.webhook_endpoints = [];
}

try {
  const one = fleetFile([101]);
  const all = fleetFile(workspaces);
  const planOne = await edp(['plan', '-f', one, '--detailed-exitcode'], [10]);
  const planAll = await edp(['plan', '-f', all, '--detailed-exitcode'], [10]);
  const applyOne = await edp(['apply', '-f', one, '--yes', '--poll-interval', '100ms']);
  reset();
  const applyAll = await edp(['apply', '-f', all, '--yes', '--poll-interval', '100ms']);
  const planInStep = await edp(['plan', '-f', all, '--detailed-exitcode'], [0]);
  console.log(
    `fleet plan and apply on Node ${process.versions.node}; sandbox latency ${LATENCY_MS} ms, build states ${BUILD_SECONDS} s each, default concurrency`,
  );
  const line = (label, ms) => console.log(`  ${label.padEnd(40)} ${String(Math.round(ms)).padStart(6)} ms`);
  line('plan, 1 workspace', planOne);
  line(`plan, ${FLEET} workspaces`, planAll);
  line('apply, 1 workspace', applyOne);
  line(`apply, ${FLEET} workspaces`, applyAll);
  line(`plan after apply, ${FLEET} workspaces (no change)`, planInStep);
  console.log(`  ratio plan ${FLEET} / 1:   ${(planAll / planOne).toFixed(2)}x`);
  console.log(`  ratio apply ${FLEET} / 1:  ${(applyAll / applyOne).toFixed(2)}x`);
} finally {
  await sandbox.close();
}

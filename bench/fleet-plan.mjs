// Fleet as code: `edp plan` and `edp apply` of one fleet file (a recipe from remote account ids,
// a webhook endpoint, a custom role) over one workspace, then over 20, with the default
// concurrency, on a sandbox with --latency 20. The 17 workspaces beyond the demo's three are
// created through the API and equipped like the demo's. Prints each as a ratio to the same
// command over one workspace. Measured in one run; no assertions.
import { startSandbox } from '../dist/sandbox.js';
import { benchDir, benchEnv, fleetFile as writeFleetFile, growFleet, timedEdp } from './lib/fleet.mjs';

const LATENCY_MS = 20;
const BUILD_SECONDS = 0.5;
const FLEET = 20;

const sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, buildSeconds: BUILD_SECONDS });
const workspaces = await growFleet(sandbox, FLEET);

const dir = benchDir('fleet-plan');
const env = benchEnv(sandbox, dir);
const fleetFile = (ws) => writeFleetFile(dir, ws);

/** One command as a separate process (async, so that the in-process sandbox keeps answering): its wall time in ms. */
const edp = (args, okCodes = [0]) => timedEdp(args, env, okCodes);

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
  const applyOne = await edp([
    'apply',
    '-f',
    one,
    '--yes',
    '--poll-interval',
    '100ms',
    '--secrets-file',
    `${dir}/secrets.json`,
  ]);
  reset();
  const applyAll = await edp([
    'apply',
    '-f',
    all,
    '--yes',
    '--poll-interval',
    '100ms',
    '--secrets-file',
    `${dir}/secrets.json`,
  ]);
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

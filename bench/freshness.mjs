// `edp freshness --all-workspaces` over 500 workspaces (or the size given: `node
// bench/freshness.mjs 100`) on a sandbox with --latency 20, against its ideal chain.
//
// A run reads the workspaces once (the agency's chain: its pages), then each workspace's
// token and recipes (one workspace's chain), C workspaces at a time (`auto`: at most 16):
//   ideal(N) = max(run(N, latency 0), (agency(N) + ceil(N / C) * workspace) * latency)
// The agency's chain is that of `edp workspaces list` over the same workspaces; one
// workspace's chain is what a second workspace adds to a run at concurrency 1. Each is
// measured at a latency of 200 ms against none (ten times the bench's, so that the noise of a
// process's start does not count as a request), the median of three. Every run starts cold
// (a config folder of its own: no cached token), as a scheduled check does. Recipes: the
// demo's workspace 101 has a built one; a workspace without recipes costs the same reads.
// A warm run (tokens cached from a run before) is measured too. Measured in one run; no
// assertions.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';
import { benchDir, benchEnv, growFleet, json, requestsInARow, timedEdp } from './lib/fleet.mjs';

const LATENCY_MS = 20;
const CHAIN_LATENCY_MS = 200;
const CONCURRENCY = 32; // the `auto` default's cap for a command that only reads (src/config/defaults.ts)
const SIZE = Number(process.argv[2]) || 500;

const sandbox = await startSandbox({ port: 0, latencyMs: 0, buildSeconds: 0 });
const latency = (ms) =>
  json(`${sandbox.url}/_sandbox/faults`, { method: 'PATCH', body: JSON.stringify({ latency_ms: ms }) });

const workspaces = await growFleet(sandbox, SIZE);
const dir = benchDir('freshness');
const env = () => benchEnv(sandbox, mkdtempSync(join(dir, 'run-')));

/** One command as a separate process, cold unless given a config folder: its wall time in ms. */
// 0 fresh, 1 stale: both are a full read.
const edp = (args, config) => timedEdp(args, config ? benchEnv(sandbox, config) : env(), [0, 1]);

/** Requests in a row of `args`: the median of three (200 ms against none). */
const chainOf = (args) => requestsInARow(() => edp(args), latency, CHAIN_LATENCY_MS);

try {
  const freshness = (scope, c) => ['freshness', ...scope, ...(c ? ['--concurrency', String(c)] : [])];
  const one = await chainOf(freshness(['-w', '101'], 1));
  const workspace = Math.max(1, Math.round((await chainOf(freshness(['-w', '101,102'], 1))) - one));
  const agency = Math.max(1, Math.round(await chainOf(['workspaces', 'list', '--json'])));
  const rounds = Math.ceil(workspaces.length / CONCURRENCY);

  await latency(0);
  const floor = await edp(freshness(['--all-workspaces']));
  await latency(LATENCY_MS);
  const measured = await edp(freshness(['--all-workspaces']));
  // Warm: a second run in the same config folder, every token cached (no token requests).
  const warmDir = mkdtempSync(join(dir, 'warm-'));
  await edp(freshness(['--all-workspaces']), warmDir);
  const warm = await edp(freshness(['--all-workspaces']), warmDir);
  const bound = (agency + rounds * workspace) * LATENCY_MS;
  const ideal = Math.max(floor, bound);
  console.log(
    `edp freshness --all-workspaces on Node ${process.versions.node}; ${workspaces.length} workspaces, sandbox latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY} (auto)`,
  );
  console.log(
    `  requests in a row: ${agency} for the agency (the workspaces' pages) + ${workspace} per workspace, ${rounds} rounds`,
  );
  console.log(
    `  measured ${Math.round(measured)} ms; no latency ${Math.round(floor)} ms; latency bound ${Math.round(bound)} ms; ratio ${(measured / ideal).toFixed(2)}x`,
  );
  console.log(
    `  warm (tokens cached, one request per workspace): measured ${Math.round(warm)} ms; latency bound ${Math.round((agency + rounds * (workspace - 1)) * LATENCY_MS)} ms`,
  );
} finally {
  await sandbox.close();
}
